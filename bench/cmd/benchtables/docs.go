package main

import (
	"bytes"
	"errors"
)

// The lines that enclose the generated section of a Markdown file.
const (
	BeginMarker = "<!-- tables:begin -->"
	EndMarker   = "<!-- tables:end -->"
)

// Section returns what lies between the marker lines of doc.
func Section(doc []byte) ([]byte, error) {
	start, end, err := sectionBounds(doc)
	if err != nil {
		return nil, err
	}
	return doc[start:end], nil
}

// ReplaceSection returns doc with what lies between its marker lines
// replaced by section.
func ReplaceSection(doc, section []byte) ([]byte, error) {
	start, end, err := sectionBounds(doc)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), doc[:start]...)
	out = append(out, section...)
	return append(out, doc[end:]...), nil
}

// sectionBounds returns the offsets of the first byte after the begin
// marker's line and of the end marker's line.
func sectionBounds(doc []byte) (start, end int, err error) {
	begin := []byte(BeginMarker + "\n")
	i := bytes.Index(doc, begin)
	if i < 0 || (i > 0 && doc[i-1] != '\n') {
		return 0, 0, errors.New("no line " + BeginMarker)
	}
	start = i + len(begin)
	j := bytes.Index(doc[start:], []byte(EndMarker))
	if j < 0 || (start+j > 0 && doc[start+j-1] != '\n') {
		return 0, 0, errors.New("no line " + EndMarker + " after " + BeginMarker)
	}
	if bytes.Count(doc, []byte(BeginMarker)) != 1 || bytes.Count(doc, []byte(EndMarker)) != 1 {
		return 0, 0, errors.New("the markers must appear once each")
	}
	return start, start + j, nil
}
