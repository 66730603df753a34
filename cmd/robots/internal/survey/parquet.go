package survey

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// surveyParquetRowGroupRows bounds the rows of a Parquet row group. The
// writer holds a row group's columns in memory until it is full, so the
// bound is what keeps the writer's memory flat whatever the input: about
// 20 MiB of agent rows. It is also how finely a reader can split a file
// across its threads (DuckDB's own row groups hold 122,880 rows), and,
// with parquet-go's 32,767 row groups a file, it lets one file hold about
// 4.3 billion rows: a run with more is sharded.
const surveyParquetRowGroupRows = 128 << 10

// surveyParquetTables name the Parquet files. Error rows, which
// captures.jsonl interleaves with the captures, are a table of their own,
// so that the columns of captures.parquet are those of a capture read,
// each typed and non-null unless the JSON row may omit it.
const (
	surveyTableCaptures = "captures"
	surveyTableAgents   = "agents"
	surveyTableErrors   = "errors"
)

// surveyParquetWriter writes a survey's rows as Parquet files, one per
// table, row groups of surveyParquetRowGroupRows rows at most.
type surveyParquetWriter struct {
	files    []*os.File
	captures *surveyParquetTable[captureRow]
	agents   *surveyParquetTable[agentRow]
	errors   *surveyParquetTable[errorRow]
}

// surveyParquetBatchRows is how many rows a table holds before it writes
// them: parquet-go's work per call, per column, is paid once a batch
// rather than once a capture (a capture row, or a capture's agent rows,
// a call), which took a tenth of the writer's instructions.
const surveyParquetBatchRows = 256

// surveyParquetTable writes rows of type T to one Parquet file, in
// batches of surveyParquetBatchRows rows.
type surveyParquetTable[T any] struct {
	w     *parquet.GenericWriter[T]
	batch []T // the rows not yet written
	// zeroNull are the fields written as null when zero (zeroIsNull).
	zeroNull []zeroField
}

// zeroField is a field of a row type that is written as null when zero:
// where it lies in the row, and how to tell it is zero as
// reflect.Value.IsZero tells, without reflect for the kinds the rows hold.
type zeroField struct {
	index  int
	offset uintptr
	size   uintptr
	test   zeroTest
}

// zeroTest is how a zeroField is told zero.
type zeroTest uint8

const (
	zeroByLength  zeroTest = iota // a string, zero when empty
	zeroByBytes                   // a bool, a number or a map: zero when every byte is
	zeroByReflect                 // any other kind
)

// zeroFieldOf describes field i of t.
func zeroFieldOf(t reflect.Type, i int) zeroField {
	f := t.Field(i)
	z := zeroField{index: i, offset: f.Offset, size: f.Type.Size(), test: zeroByReflect}
	switch f.Type.Kind() {
	case reflect.String:
		z.test = zeroByLength
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Map:
		z.test = zeroByBytes // a float is zero when its bits are, -0.0 not; a map when it is nil
	}
	return z
}

// nulls returns which zeroNull fields are zero in row, bit i for
// zeroNull[i].
func (t *surveyParquetTable[T]) nulls(row *T) uint64 {
	var mask uint64
	for i, f := range t.zeroNull {
		at := unsafe.Add(unsafe.Pointer(row), f.offset)
		zero := true
		switch f.test {
		case zeroByLength:
			zero = len(*(*string)(at)) == 0
		case zeroByBytes:
			for _, b := range unsafe.Slice((*byte)(at), f.size) {
				zero = zero && b == 0
			}
		default:
			zero = reflect.ValueOf(row).Elem().Field(f.index).IsZero()
		}
		if zero {
			mask |= 1 << i
		}
	}
	return mask
}

// newSurveyParquetWriter creates the table files under dir, named
// TABLE+suffix.
func newSurveyParquetWriter(dir, suffix string) (*surveyParquetWriter, error) {
	w := &surveyParquetWriter{}
	var err error
	if w.captures, err = newSurveyParquetTable[captureRow](w, filepath.Join(dir, surveyTableCaptures+suffix)); err != nil {
		return nil, err
	}
	if w.agents, err = newSurveyParquetTable[agentRow](w, filepath.Join(dir, surveyTableAgents+suffix)); err != nil {
		return nil, err
	}
	if w.errors, err = newSurveyParquetTable[errorRow](w, filepath.Join(dir, surveyTableErrors+suffix)); err != nil {
		return nil, err
	}
	return w, nil
}

// newSurveyParquetTable creates the file at path and a writer of rows of
// type T to it. On error the files created so far are closed.
func newSurveyParquetTable[T any](w *surveyParquetWriter, path string) (*surveyParquetTable[T], error) {
	f, err := os.Create(path)
	if err != nil {
		w.closeFiles()
		return nil, err
	}
	w.files = append(w.files, f)
	opts := []parquet.WriterOption{
		parquet.MaxRowsPerRowGroup(surveyParquetRowGroupRows),
		parquet.Compression(surveyZstd),
		// A page's bounds are written once, in the file's page index
		// (its column index), with each column chunk's statistics: not
		// again in every page's header, where parquet-go computed them a
		// second time, the bounds of every value of the page, for readers
		// that read them there (DuckDB reads a row group's).
		parquet.DataPageStatistics(false),
	}
	for _, o := range surveyParquetTags(reflect.TypeFor[T]()) {
		opts = append(opts, o)
	}
	t := reflect.TypeFor[T]()
	var zeroNull []zeroField
	for i := range t.NumField() {
		if zeroIsNull(t.Field(i)) {
			zeroNull = append(zeroNull, zeroFieldOf(t, i))
		}
	}
	if len(zeroNull) > 64 {
		panic(fmt.Sprintf("survey parquet: %s has %d fields null when zero, past the 64 of a mask", t.Name(), len(zeroNull)))
	}
	return &surveyParquetTable[T]{w: parquet.NewGenericWriter[T](f, opts...), zeroNull: zeroNull}, nil
}

// surveyZstd compresses the survey's Parquet pages with zstd at its
// default level, as parquet.Zstd does, with one encoder kept for the
// process. parquet.Zstd takes its encoders from a pool that each garbage
// collection empties, and a new encoder allocates and clears a history of
// its window, 8 MiB at this level, on first use: a survey collects often,
// and paid that again and again. A page is
// compressed on its own (EncodeAll), so the window need not exceed the
// largest page; surveyZstdWindow bounds it.
var surveyZstd = newSurveyZstd()

// surveyZstdWindow is the zstd window of the survey's pages: a page of
// parquet-go's default buffer (256 KiB) fits it whole, so a smaller
// window than the level's 8 MiB loses no match within a page.
const surveyZstdWindow = 1 << 20

type surveyZstdCodec struct{ enc *zstd.Encoder }

func newSurveyZstd() *surveyZstdCodec {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithWindowSize(surveyZstdWindow),
		zstd.WithEncoderConcurrency(1), // EncodeAll callers wait their turn: the writers take turns anyway
		zstd.WithZeroFrames(true),
		zstd.WithEncoderCRC(false),
	)
	if err != nil {
		panic(err) // the options are constants
	}
	return &surveyZstdCodec{enc: enc}
}

func (c *surveyZstdCodec) String() string { return "ZSTD" }

func (c *surveyZstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *surveyZstdCodec) Encode(dst, src []byte) ([]byte, error) {
	return c.enc.EncodeAll(src, dst[:0]), nil
}

func (c *surveyZstdCodec) Decode(dst, src []byte) ([]byte, error) {
	return parquet.Zstd.Decode(dst, src)
}

// write writes one capture's rows.
func (w *surveyParquetWriter) write(res *surveyResult) error {
	if res.err != nil {
		return w.errors.add(*res.err)
	}
	if err := w.captures.add(*res.row); err != nil {
		return err
	}
	return w.agents.add(res.agentRs...)
}

// add adds rows to the batch, and writes it once it is full.
func (t *surveyParquetTable[T]) add(rows ...T) error {
	t.batch = append(t.batch, rows...)
	if len(t.batch) < surveyParquetBatchRows {
		return nil
	}
	return t.flush()
}

// flush writes the rows of the batch, and empties it: the rows' strings
// and maps are not held past it.
func (t *surveyParquetTable[T]) flush() error {
	err := t.write(t.batch)
	clear(t.batch)
	t.batch = t.batch[:0]
	return err
}

// write writes rows, in runs in which each zeroNull field is zero in
// every row or in none. Given a run that mixes zero and set values of an
// optional column, parquet-go v0.32.0 writes some of the zero values that
// follow the set ones as values, not nulls (as in parquet-go/parquet-go#154);
// a column all null or all set in a call is written right. Most captures'
// agent rows are one run: the agents that fall to the same groups differ
// in no null. The tests compare every null with the JSON rows.
func (t *surveyParquetTable[T]) write(rows []T) error {
	for len(rows) > 0 {
		first := t.nulls(&rows[0])
		n := 1
		for n < len(rows) && t.nulls(&rows[n]) == first {
			n++
		}
		if _, err := t.w.Write(rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// close writes the last rows, row groups and footers, and closes the
// files.
func (w *surveyParquetWriter) close() error {
	err := errors.Join(w.captures.flush(), w.agents.flush(), w.errors.flush())
	err = errors.Join(err, w.captures.w.Close(), w.agents.w.Close(), w.errors.w.Close())
	return errors.Join(err, w.closeFiles())
}

func (w *surveyParquetWriter) closeFiles() error {
	var err error
	for _, f := range w.files {
		err = errors.Join(err, f.Close())
	}
	w.files = nil
	return err
}

// surveyParquetTags returns the schema options that name and type the
// Parquet columns of the row type t after its JSON fields, so that a
// field added to a row struct is a column without a second edit:
//
//   - the column is named as the JSON member (snake_case);
//   - a field the JSON row may omit (omitempty, omitzero, a pointer) is
//     nullable, and null where the JSON member is absent; the others
//     are required;
//   - an int is an INT64, a bool a BOOLEAN, a string a UTF-8 byte array
//     (dictionary-encoded: most columns repeat a few values), a float64 a
//     DOUBLE, a map[string]string a MAP, a time.Time a TIMESTAMP in
//     microseconds, UTC (nanoseconds are read by fewer engines);
//   - unexported fields and fields tagged json:"-" are not columns.
//
// It panics on a field it cannot map (an embedded struct, whose JSON
// members are flattened by rules this does not repeat); the tests map
// every row type.
func surveyParquetTags(t reflect.Type) []*parquet.StructTagOption {
	var opts []*parquet.StructTagOption
	tagged := func(name string, tag string) *parquet.StructTagOption {
		return &parquet.StructTagOption{StructTag: reflect.StructTag(`parquet:"` + tag + `"`), ColumnPath: []string{name}}
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			panic(fmt.Sprintf("survey parquet: %s.%s is embedded", t.Name(), f.Name))
		}
		if !f.IsExported() {
			continue
		}
		name, rest, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && rest == "" {
			opts = append(opts, tagged(f.Name, "-"))
			continue
		}
		if name == "" {
			name = f.Name
		}
		tag := []string{name}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem() // a pointer is nullable already
		} else if zeroIsNull(f) {
			tag = append(tag, "optional")
		}
		switch {
		case ft == reflect.TypeFor[time.Time]():
			tag = append(tag, "timestamp(microsecond:utc)")
		case ft.Kind() == reflect.String:
			tag = append(tag, "dict")
		case ft.Kind() == reflect.Map && ft.Key().Kind() == reflect.String && ft.Elem().Kind() == reflect.String,
			ft.Kind() == reflect.Int, ft.Kind() == reflect.Int64, ft.Kind() == reflect.Int32,
			ft.Kind() == reflect.Bool, ft.Kind() == reflect.Float64:
		default:
			panic(fmt.Sprintf("survey parquet: %s.%s: no Parquet type for %s", t.Name(), f.Name, f.Type))
		}
		opts = append(opts, tagged(f.Name, strings.Join(tag, ",")))
	}
	return opts
}

// zeroIsNull reports whether f is a column of surveyParquetTags that is
// null where the field is zero: a field, not a pointer, that the JSON row
// omits when zero (omitempty, omitzero).
func zeroIsNull(f reflect.StructField) bool {
	name, rest, _ := strings.Cut(f.Tag.Get("json"), ",")
	if !f.IsExported() || f.Anonymous || name == "-" && rest == "" || f.Type.Kind() == reflect.Pointer {
		return false
	}
	for _, o := range strings.Split(rest, ",") {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return false
}
