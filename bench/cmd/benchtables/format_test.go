package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormatValue(t *testing.T) {
	cases := []struct {
		unit string
		v    float64
		want string
	}{
		{"ns/op", 46.9, "46.9 ns"},
		{"ns/op", 69.03, "69 ns"},
		{"ns/op", 0, "0 ns"},
		{"ns/B", 1.3412, "1.34 ns"},
		{"ns/op", 58387, "58.4 µs"},
		{"ns/op", 999.7, "1 µs"},
		{"ns/file", 4251369445, "4.25 s"},
		{"B/op", 560, "560 B"},
		{"B/op", 1101, "1.08 KiB"},
		{"B/op", 32 << 10, "32 KiB"},
		{"B/file-median", 5784, "5.65 KiB"},
		{"scan-B", 2481402, "2.37 MiB"},
		{"MB/s", 286.66, "287"},
		{"MB/s", 17.39, "17.4"},
		{"MB/s", 0.48, "0.48"},
		{"allocs/op", 111424, "111,424"},
		{"panics", 2, "2"},
		{"panics", 0.5, "0.5"},
		{"checks/s", 1181373.4, "1,181,373"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatValue(c.unit, c.v), "%v %s", c.v, c.unit)
	}
}

func TestFormatRatio(t *testing.T) {
	cases := []struct {
		r    float64
		want string
	}{
		{0.3123, "0.31×"},
		{0.005817, "0.0058×"},
		{1, "1×"},
		{1.44, "1.4×"},
		{9.96, "10×"},
		{231.4, "231×"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatRatio(c.r), "%v", c.r)
	}
}

func TestUnitKinds(t *testing.T) {
	assert.True(t, IsTime("ns/first-check"))
	assert.False(t, IsTime("MB/s"))
	assert.True(t, IsBytes("B/automaton-star"))
	assert.True(t, IsBytes("scan-B"))
	assert.False(t, IsBytes("allocs/op"))
	assert.False(t, LowerIsBetter("files/s"))
	assert.True(t, LowerIsBetter("ns/url"))
}
