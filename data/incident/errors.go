package incident

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an input error so callers and tests can tell them apart
// with errors.Is(err, incident.ErrSyntax) and the like.
type Kind string

// Error kinds. Each is also an error value for errors.Is.
const (
	ErrSyntax        Kind = "syntax"         // malformed JSON, YAML, page layout
	ErrType          Kind = "type"           // a field of the wrong type
	ErrEncoding      Kind = "encoding"       // invalid UTF-8
	ErrBinary        Kind = "binary"         // not text at all
	ErrEmpty         Kind = "empty"          // nothing to import
	ErrMissing       Kind = "missing-field"  // a required field is absent
	ErrDuplicate     Kind = "duplicate-id"   // two cases with one id in a batch
	ErrRange         Kind = "out-of-range"   // end before start, absurd durations
	ErrTooLarge      Kind = "too-large"      // over a size limit
	ErrUnknownFormat Kind = "unknown-format" // no importer recognises the file
	ErrSchema        Kind = "schema-version" // written by a newer version
	ErrNotFound      Kind = "not-found"      // no case with that id
	ErrInvalid       Kind = "invalid"        // a value the vocabulary or rules refuse
)

func (k Kind) Error() string { return string(k) }

// Error is an input error that names where and what, and says what to do.
type Error struct {
	Kind  Kind
	File  string
	Line  int // 1-based; 0 when not known
	Col   int // 1-based byte column on Line; 0 when not known
	Field string
	Msg   string
	Hint  string
	Err   error // underlying cause, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Col > 0 {
				fmt.Fprintf(&b, ":%d", e.Col)
			}
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	if e.Err != nil && !strings.Contains(e.Msg, e.Err.Error()) {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Hint != "" {
		b.WriteString(" (hint: ")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	return b.String()
}

// Is matches the error's Kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error of kind k.
func Errorf(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// At returns a copy of e located at file and line.
func (e *Error) At(file string, line int) *Error {
	c := *e
	c.File, c.Line = file, line
	return &c
}

// AtCol returns a copy of e located at file, line and column.
func (e *Error) AtCol(file string, line, col int) *Error {
	c := *e
	c.File, c.Line, c.Col = file, line, col
	return &c
}

// WithField returns a copy of e naming a field.
func (e *Error) WithField(f string) *Error { c := *e; c.Field = f; return &c }

// WithHint returns a copy of e with a hint.
func (e *Error) WithHint(h string) *Error { c := *e; c.Hint = h; return &c }

// KindOf returns the Kind of err, or "" when it is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
