package safeyaml

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"incidents/data/incident"
)

// MaxDepth bounds the nesting of a document: front matter is flat, a
// config two levels deep, the vocabulary five.
const MaxDepth = 32

// MaxAliasValues bounds what aliases may repeat: each alias (*name) counts
// the values (scalars, lists and mappings) of the anchor (&name) it names,
// its own aliases expanded, and the sum over the document may not pass
// this. A document without aliases counts 0; no real front matter or
// config uses them, and a handful of repeated weights stays far below.
const MaxAliasValues = 1000

// Doc says what a document is and where it stands, for the messages.
type Doc struct {
	// Name is the file the document comes from.
	Name string
	// Line is the file line the document's first line is on (0 or 1 when
	// the document is the whole file; 2 for front matter after "---").
	Line int
	// What names the document as its reader knows it, as the subject of a
	// sentence: "YAML front matter", "similarity config".
	What string
	// Hint says what the document holds; refusals and type errors end
	// with it.
	Hint string
	// Strict refuses keys the target has no field for.
	Strict bool
}

// syntaxHint is the hint of a YAML syntax error, whatever the document.
const syntaxHint = "quote values that contain ': ' or start with a special character"

// Unmarshal decodes the first document of data into v after the checks of
// the package; keys the document lacks keep v's values. Every error is an
// *incident.Error located in d.Name.
func Unmarshal(d Doc, data []byte, v any) (err error) {
	defer func() {
		// goccy/go-yaml v1.19.2 dereferences nil on some tagged values
		// ("k: !t v" into a map of lists): a refusal, not a crash.
		if recover() != nil {
			err = &incident.Error{Kind: incident.ErrSyntax, File: d.Name, Msg: "the YAML decoder could not read the " + d.What,
				Hint: "simplify the values that carry a tag (!name); " + syntaxHint}
		}
	}()
	if err := CheckDepth(d, data); err != nil {
		return err
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return d.decodeError(data, err)
	}
	if err := checkAliases(d, data, f); err != nil {
		return err
	}
	if len(f.Docs) == 0 || f.Docs[0] == nil || f.Docs[0].Body == nil {
		return nil
	}
	var opts []yaml.DecodeOption
	if d.Strict {
		opts = append(opts, yaml.Strict())
	}
	if err := yaml.NodeToValue(f.Docs[0].Body, v, opts...); err != nil {
		return d.decodeError(data, err)
	}
	keepLiterals(f.Docs[0].Body, reflect.ValueOf(v))
	return nil
}

// fileLine turns a 1-based line of the document into a line of the file.
func (d Doc) fileLine(line int) int {
	if line <= 0 {
		return 0
	}
	return max(d.Line, 1) + line - 1
}

// CheckDepth refuses a document nested deeper than MaxDepth before it is
// parsed: flow brackets are counted wherever they stand (quotes too, to
// stay conservative), and block nesting by a line's indentation plus its
// leading "- " indicators (two columns a level).
func CheckDepth(d Doc, data []byte) error {
	depth, line, col, leading := 0, 1, 0, true
	refuse := func() error {
		return &incident.Error{Kind: incident.ErrSyntax, File: d.Name, Line: d.fileLine(line),
			Msg: fmt.Sprintf("%s nested deeper than %d levels", d.What, MaxDepth), Hint: d.Hint}
	}
	for i, b := range data {
		if b == '\n' {
			line, col, leading = line+1, 0, true
			continue
		}
		if leading {
			if b == ' ' || b == '\t' || b == '-' && i+1 < len(data) && (data[i+1] == ' ' || data[i+1] == '\t') {
				col++
				if b == '-' {
					col++
				}
				if col > 2*MaxDepth {
					return refuse()
				}
				continue
			}
			leading = false
		}
		switch b {
		case '[', '{':
			if depth++; depth > MaxDepth {
				return refuse()
			}
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return nil
}

// checkAliases refuses a document whose aliases expand to more than
// MaxAliasValues values, at the alias that passes the budget.
func checkAliases(d Doc, data []byte, f *ast.File) error {
	e := expansion{sizes: map[string]int64{}, limit: MaxAliasValues}
	for _, doc := range f.Docs {
		if doc != nil {
			e.size(doc.Body)
		}
		if e.over != nil {
			break
		}
	}
	if e.over == nil {
		return nil
	}
	line := 0
	if tk := e.over.GetToken(); tk != nil && tk.Position != nil {
		line = tk.Position.Line
	}
	return &incident.Error{Kind: incident.ErrTooLarge, File: d.Name, Line: d.fileLine(line), Field: keyAt(data, line),
		Msg:  fmt.Sprintf("aliases in the %s expand to more than %d values", d.What, MaxAliasValues),
		Hint: "write the values out instead of repeating anchors (&name) with aliases (*name); " + d.Hint}
}

// expansion counts the values a document stands for with its aliases
// expanded. Counts saturate just above the limit, so that no document,
// however many levels of aliases it stacks, overflows them.
type expansion struct {
	sizes map[string]int64 // anchor name -> values it stands for
	total int64            // values added by aliases so far
	limit int64
	over  *ast.AliasNode // the alias that passed the limit
}

func (e *expansion) add(a, b int64) int64 { return min(a+b, e.limit+1) }

// size returns the number of values n stands for, aliases expanded, and
// adds what each alias repeats to e.total. Anchors are defined before the
// aliases that name them, so one walk in document order knows each size.
func (e *expansion) size(n ast.Node) int64 {
	switch n := n.(type) {
	case nil:
		return 0
	case *ast.DocumentNode:
		if n == nil {
			return 0
		}
		return e.size(n.Body)
	case *ast.MappingNode:
		if n == nil {
			return 0
		}
		s := int64(1)
		for _, kv := range n.Values {
			if kv != nil {
				s = e.add(s, e.add(e.size(kv.Key), e.size(kv.Value)))
			}
		}
		return s
	case *ast.MappingValueNode:
		if n == nil {
			return 0
		}
		return e.add(e.size(n.Key), e.size(n.Value))
	case *ast.MappingKeyNode:
		if n == nil {
			return 0
		}
		return e.size(n.Value)
	case *ast.SequenceNode:
		if n == nil {
			return 0
		}
		s := int64(1)
		for _, v := range n.Values {
			s = e.add(s, e.size(v))
		}
		return s
	case *ast.TagNode:
		if n == nil {
			return 0
		}
		return e.size(n.Value)
	case *ast.AnchorNode:
		if n == nil {
			return 0
		}
		s := e.size(n.Value)
		if n.Name != nil {
			e.sizes[n.Name.GetToken().Value] = s
		}
		return s
	case *ast.AliasNode:
		if n == nil {
			return 0
		}
		s := int64(1) // an alias to no anchor: the decoder refuses it
		if n.Value != nil {
			if known, ok := e.sizes[n.Value.GetToken().Value]; ok {
				s = known
			}
		}
		e.total = e.add(e.total, s)
		if e.total > e.limit && e.over == nil {
			e.over = n
		}
		return s
	case *ast.CommentGroupNode, *ast.CommentNode:
		return 0
	}
	return 1
}

// decodeError turns an error of the YAML parser or decoder into a located
// *incident.Error in the user's words (no Go type names).
func (d Doc) decodeError(data []byte, err error) error {
	var ye yaml.Error
	line, msg := 0, err.Error()
	if errors.As(err, &ye) {
		msg = ye.GetMessage()
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			line = tk.Position.Line
		}
	}
	var tk *token.Token
	if ye != nil {
		tk = ye.GetToken()
	}
	key := fieldAt(data, line, tk)
	at := &incident.Error{File: d.Name, Line: d.fileLine(line), Field: key, Hint: d.Hint}
	var te *yaml.TypeError
	var ue *yaml.UnexpectedNodeTypeError
	var oe *yaml.OverflowError
	var fe *yaml.UnknownFieldError
	switch {
	case errors.As(err, &te):
		at.Kind = incident.ErrType
		at.Msg, at.Hint = mustBe(tk, key, describe(te.DstType), describe(te.SrcType), d.Hint)
	case errors.As(err, &ue):
		at.Kind = incident.ErrType
		at.Msg, at.Hint = mustBe(tk, key, nodeWords(ue.Expected), nodeWords(ue.Actual), d.Hint)
	case errors.As(err, &oe):
		at.Kind, at.Msg = incident.ErrType, fmt.Sprintf("number %s is out of range", oe.SrcNum)
	case errors.As(err, &fe):
		at.Kind, at.Msg = incident.ErrInvalid, "unknown key"
	default:
		// No field: a broken quote or indentation may span keys.
		at.Kind, at.Msg, at.Hint, at.Field = incident.ErrSyntax, "invalid "+d.What+": "+msg, syntaxHint, ""
	}
	return at
}

// describe names the kind of value a Go type holds, as a YAML writer
// knows it.
func describe(t reflect.Type) string {
	if t == nil {
		return "nothing"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a value"
}

// nodeWords names a kind of YAML node as describe names a Go type.
func nodeWords(t ast.NodeType) string {
	switch t {
	case ast.SequenceType:
		return "a list"
	case ast.MappingType, ast.MappingKeyType, ast.MappingValueType:
		return "a mapping"
	case ast.StringType, ast.LiteralType:
		return "text"
	case ast.IntegerType:
		return "a whole number"
	case ast.FloatType, ast.InfinityType, ast.NanType:
		return "a number"
	case ast.BoolType:
		return "true or false"
	case ast.NullType:
		return "nothing"
	}
	return "a value"
}

// mustBe says that the value of key (or, when tk is an item of a list,
// each of its items) must be want, not got, and how to write it.
func mustBe(tk *token.Token, key, want, got, docHint string) (msg, hint string) {
	if tk != nil && tk.Prev != nil {
		switch tk.Prev.Type {
		case token.SequenceStartType, token.CollectEntryType, token.SequenceEntryType:
			return fmt.Sprintf("each item must be %s, not %s", want, got),
				fmt.Sprintf("write the items of %s as plain values, e.g. [a, b]; %s", orKey(key), docHint)
		}
	}
	return fmt.Sprintf("must be %s, not %s", want, got), howToWrite(key, want) + "; " + docHint
}

func orKey(key string) string {
	if key == "" {
		return "the list"
	}
	return key
}

// howToWrite says how to write key so that it holds what want names.
func howToWrite(key, want string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	if key == "" {
		key = "the key"
	}
	switch want {
	case "text":
		return fmt.Sprintf("write %s: and its text on the same line (in quotes if it holds ': ' or starts with [ or {)", key)
	case "a list":
		return fmt.Sprintf("write %s: [a, b], or one '- item' line per item under it", key)
	case "a mapping":
		return fmt.Sprintf("write %s: and indented 'name: value' lines under it", key)
	case "a whole number", "a number":
		return fmt.Sprintf("write %s: and %s, without quotes", key, want)
	case "true or false":
		return fmt.Sprintf("write %s: true or %s: false", key, key)
	}
	return "check the value of " + key
}

// fieldAt names the key whose value the error at line n (1-based) and
// token tk is about: the top-level key, and the key that holds the value
// when it is nested below it ("cases.id") or when the top-level line does
// not read as a key (a flow mapping such as a JSON config).
func fieldAt(data []byte, n int, tk *token.Token) string {
	top, inner := keyAt(data, n), tokenKey(tk)
	switch {
	case inner == "" || inner == top:
		return top
	case top == "" || strings.ContainsAny(top, `{}[]"'`):
		return inner
	}
	return top + "." + inner
}

// tokenKey returns the key of the mapping value that starts at tk (the
// value's first token, or the ':' of its first entry when the value is
// itself a mapping), or "".
func tokenKey(tk *token.Token) string {
	if tk != nil && tk.Type == token.MappingValueType {
		tk = tk.Prev // the value's own first key
	}
	if tk == nil || tk.Prev == nil || tk.Prev.Type != token.MappingValueType || tk.Prev.Prev == nil {
		return ""
	}
	return tk.Prev.Prev.Value
}

// keyAt returns the top-level key whose value spans line n (1-based) of
// the document, or "".
func keyAt(data []byte, n int) string {
	if n <= 0 {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	for i := min(n, len(lines)) - 1; i >= 0; i-- {
		l := strings.TrimSuffix(lines[i], "\r")
		if l != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '-' && l[0] != '#' {
			if k, _, ok := strings.Cut(l, ":"); ok {
				return strings.Trim(strings.TrimSpace(k), `"'`)
			}
		}
	}
	return ""
}
