package safeyaml

import (
	"reflect"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// keepLiterals walks the decoded value v beside the node n it was decoded
// from and gives every string that the document wrote as a plain number
// the text as written: goccy/go-yaml stores a number decoded into a string
// in the number's canonical form, so "id_prefix: 007" became "7", "org:
// 3.10" "3.1", 0x10 "16" and .nan "NaN". It follows struct fields (by
// their yaml name, inline ones too), maps with text keys, slices and
// pointers; aliases and merge keys are left as decoded.
func keepLiterals(n ast.Node, v reflect.Value) {
	if a, ok := n.(*ast.AnchorNode); ok {
		n = a.Value
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		if lit, ok := numberLiteral(n); ok && v.CanSet() {
			v.SetString(lit)
		}
	case reflect.Slice:
		if seq, ok := n.(*ast.SequenceNode); ok && len(seq.Values) == v.Len() {
			for i, e := range seq.Values {
				keepLiterals(e, v.Index(i))
			}
		}
	case reflect.Struct:
		for _, kv := range pairs(n) {
			if f, ok := fieldNamed(v, keyText(kv)); ok {
				keepLiterals(kv.Value, f)
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		for _, kv := range pairs(n) {
			k := reflect.ValueOf(keyText(kv)).Convert(v.Type().Key())
			e := v.MapIndex(k)
			if !e.IsValid() {
				continue
			}
			if v.Type().Elem().Kind() == reflect.String { // map values cannot be set in place
				if lit, ok := numberLiteral(kv.Value); ok {
					v.SetMapIndex(k, reflect.ValueOf(lit).Convert(v.Type().Elem()))
				}
				continue
			}
			keepLiterals(kv.Value, e) // a slice's items and a pointer's target can
		}
	}
}

// pairs returns the key-value pairs of a mapping node (nil for others).
func pairs(n ast.Node) []*ast.MappingValueNode {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}
	}
	return nil
}

// keyText is a pair's key as written ("" for none).
func keyText(kv *ast.MappingValueNode) string {
	if kv == nil || kv.Key == nil || kv.Key.GetToken() == nil {
		return ""
	}
	return kv.Key.GetToken().Value
}

// fieldNamed returns the field of struct v that the key name decodes into:
// its yaml tag's name, else its name in lower case, looking into inline
// fields too.
func fieldNamed(v reflect.Value, name string) (reflect.Value, bool) {
	if !v.IsValid() || v.Kind() != reflect.Struct { // a nil inline pointer
		return reflect.Value{}, false
	}
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag, opts, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if tag == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			if f, ok := fieldNamed(reflect.Indirect(v.Field(i)), name); ok {
				return f, true
			}
			continue
		}
		if tag == "" {
			tag = strings.ToLower(sf.Name)
		}
		if tag == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
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
