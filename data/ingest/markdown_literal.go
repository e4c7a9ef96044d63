package ingest

import (
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// literalScalars puts back, in the text fields and list items of fm, the
// text written in the front matter fmText for values YAML reads as
// numbers: the decoder stores a number into a string field as the
// number's canonical form, so uuid 007 became the id "7", product 1.10
// "1.1", 0x10 "16" and .nan "NaN". fmText has passed safeyaml's checks
// (depth, aliases) and decoded into fm; an alias (*name) is left as
// decoded.
func literalScalars(fmText []byte, fm *frontMatter) {
	f, err := parser.ParseBytes(fmText, 0)
	if err != nil || len(f.Docs) == 0 || f.Docs[0] == nil {
		return
	}
	var pairs []*ast.MappingValueNode
	switch b := f.Docs[0].Body.(type) {
	case *ast.MappingNode:
		pairs = b.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{b}
	}
	texts := map[string]*string{"uuid": &fm.UUID, "url": &fm.URL, "archive_url": &fm.ArchiveURL, "title": &fm.Title,
		"start_time": &fm.StartTime, "end_time": &fm.EndTime, "company": &fm.Company, "product": &fm.Product,
		"summary": &fm.Summary, "source_fetched_at": &fm.SourceFetchedAt, "source_published_at": &fm.SourcePublishedAt}
	lists := map[string]*[]string{"categories": &fm.Categories, "keywords": &fm.Keywords}
	for _, kv := range pairs {
		if kv == nil || kv.Key == nil || kv.Key.GetToken() == nil {
			continue
		}
		key := kv.Key.GetToken().Value
		if dst, ok := texts[key]; ok {
			if lit, ok := numberLiteral(kv.Value); ok {
				*dst = lit
			}
			continue
		}
		seq, ok := kv.Value.(*ast.SequenceNode)
		dst := lists[key]
		if dst == nil || !ok || len(seq.Values) != len(*dst) {
			continue
		}
		for i, v := range seq.Values {
			if lit, ok := numberLiteral(v); ok {
				(*dst)[i] = lit
			}
		}
	}
}

// numberLiteral returns the text of a plain scalar YAML reads as a number
// (integer, float, infinity, NaN), as written.
func numberLiteral(n ast.Node) (string, bool) {
	switch n.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		if tk := n.GetToken(); tk != nil {
			return tk.Value, true
		}
	}
	return "", false
}
