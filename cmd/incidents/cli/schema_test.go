package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"incidents/data/store"
)

func TestSchema(t *testing.T) {
	md, _ := mustRun(t, "schema", "-o", "markdown")
	golden(t, "schema.md", md)

	out, _ := mustRun(t, "schema", "-o", "json")
	var views []store.View
	if err := json.Unmarshal([]byte(out), &views); err != nil {
		t.Fatal(err)
	}
	if len(views) != len(store.Views()) || views[0].Name != "incidents" || len(views[0].Columns) == 0 {
		t.Fatalf("json: %+v", views)
	}
	table, _ := mustRun(t, "schema")
	for _, v := range store.Views() {
		if !strings.Contains(table, strings.ToUpper(v.Name)+": ") {
			t.Errorf("table lacks view %s", v.Name)
		}
	}
}
