package ingest

import (
	"os"
	"testing"
)

// BenchmarkParseIcco parses all 242 icco postmortems per iteration
// (detection, byte checks, parsing and validation).
func BenchmarkParseIcco(b *testing.B) {
	var ins []Input
	size := 0
	for _, f := range iccoFiles(b) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, Input{Name: f, Data: data})
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range ins {
			if _, err := ParseChecked(in, ""); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseList parses the danluu list (190 incidents) per iteration.
func BenchmarkParseList(b *testing.B) {
	in := readShared(b, "corpora/danluu-post-mortems/README.md")
	b.SetBytes(int64(len(in.Data)))
	for b.Loop() {
		if _, err := ParseChecked(in, ""); err != nil {
			b.Fatal(err)
		}
	}
}
