package store

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"incidents/data/incident"
)

func TestSmallQueries(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	a, b := sample("A"), sample("B")
	b.References = append(b.References, incident.Reference{ID: "A"})
	mustUpsert(t, s, a, b, minimal("C", "o", "2022"))

	if ids, err := s.IDs(ctx); err != nil || !reflect.DeepEqual(ids, []string{"A", "B", "C"}) {
		t.Fatalf("IDs: %v, %v", ids, err)
	}
	if ids, err := s.Unlinked(ctx); err != nil || !reflect.DeepEqual(ids, []string{"A", "B", "C"}) {
		t.Fatalf("Unlinked before any generation: %v, %v", ids, err)
	}
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 3}, linksFor("A", "B", "C", "A")); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.Unlinked(ctx); err != nil || !reflect.DeepEqual(ids, []string{"B"}) {
		t.Fatalf("Unlinked: %v, %v, want [B]", ids, err)
	}
	refs, err := s.References(ctx)
	if want := map[string][]string{"A": {"IL-0001"}, "B": {"IL-0001", "A"}}; err != nil || !reflect.DeepEqual(refs, want) {
		t.Fatalf("References: %v, %v, want %v", refs, err, want)
	}
	counts, err := s.TermCounts(ctx)
	if err != nil || counts[incident.RootCause]["software-defect"] != 2 || counts[incident.Symptom]["high-error-rate"] != 2 || len(counts[incident.Component]) != 0 {
		t.Fatalf("TermCounts: %v, %v", counts, err)
	}

	if n, err := s.ViewRows(ctx, "incidents"); err != nil || n != 3 {
		t.Fatalf("ViewRows: %d, %v", n, err)
	}
	if _, err := s.ViewRows(ctx, "core.incidents"); err == nil {
		t.Fatal("ViewRows counted a table that is not a public view")
	}
	dir := t.TempDir()
	if n, err := s.ExportView(ctx, "related", filepath.Join(dir, "related.csv"), ExportCSV, ""); err != nil || n != 2 {
		t.Fatalf("ExportView csv: %d, %v", n, err)
	}
	if n, err := s.ExportView(ctx, "incidents", filepath.Join(dir, "incidents"), ExportParquet, "year"); err != nil || n != 3 {
		t.Fatalf("ExportView partitioned parquet: %d, %v", n, err)
	}
	if parts, _ := filepath.Glob(filepath.Join(dir, "incidents", "year=*")); len(parts) != 2 {
		t.Fatalf("partitions %v, want one per year (2017, 2022)", parts)
	}
	if _, err := s.ExportView(ctx, "incidents", filepath.Join(dir, "x.csv"), ExportCSV, "year"); err == nil {
		t.Fatal("csv export accepted a partition column")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.csv")); !os.IsNotExist(err) {
		t.Fatalf("a refused export wrote a file: %v", err)
	}
}
