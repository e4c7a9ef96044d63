package ingest

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"incidents/data/incident"
)

// charsetPage is a status page whose head is head and whose article is
// body, both as bytes of the charset the test gives.
func charsetPage(head, body string) []byte {
	return []byte("<!DOCTYPE html>\n<html><head>" + head + "<title>Status</title></head>\n<body><article>\n" + body + "\n</article></body></html>\n")
}

// TestHTMLCharset: a page saved in the charset it declares (<meta
// charset>, <meta http-equiv>, an XML declaration, a byte order mark) is
// read in UTF-8; a page whose declaration lies is read as its bytes are,
// or refused naming the charset, the line and what to do.
func TestHTMLCharset(t *testing.T) {
	sjis, err := japanese.ShiftJIS.NewEncoder().String("<h1>決済APIの障害</h1><p>On 3 March 2024 from 10:00 to 11:02 UTC the checkout API failed. 原因は設定の誤りでした。</p>")
	if err != nil {
		t.Fatal(err)
	}
	const body = "<h1>Caf\xe9 checkout outage \x96 EU</h1><p>On 3 March 2024 from 10:00 to 11:02 UTC the checkout API in Z\xfcrich failed; refunds cost \x80200.</p>"
	const utf8Body = "<h1>Café checkout outage – EU</h1><p>On 3 March 2024 from 10:00 to 11:02 UTC the checkout API in Zürich failed; refunds cost €200.</p>"
	const ascii = "<h1>Checkout outage</h1><p>On 3 March 2024 from 10:00 to 11:02 UTC the checkout API failed.</p>"
	tests := []struct {
		name, file, format string
		data               []byte
		title, has, note   string // the case's title, words its narrative holds, words its note holds
		refused            string // words of the error, "" when the page is read
		line               int
	}{
		{name: "meta charset windows-1252", data: charsetPage(`<meta charset="windows-1252">`, body),
			title: "Café checkout outage – EU", has: "Zürich failed; refunds cost €200", note: "decoded from windows-1252"},
		{name: "http-equiv ISO-8859-1 (read as windows-1252, as browsers do)", data: charsetPage(`<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">`, body),
			title: "Café checkout outage – EU", has: "Zürich", note: "decoded from windows-1252"},
		{name: "Shift_JIS", data: charsetPage(`<META HTTP-EQUIV="content-type" CONTENT="text/html;charset=Shift_JIS">`, sjis),
			title: "決済APIの障害", has: "原因は設定の誤りでした。", note: "decoded from shift_jis"},
		{name: "XHTML with an XML declaration", file: "pm.xhtml", data: append([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?>`+"\n"), charsetPage("", body)...),
			title: "Café checkout outage – EU", has: "Zürich"},
		{name: "forced html on a .txt file", file: "pm.txt", format: "html", data: []byte("<meta charset=latin1><article>" + body + "</article>"),
			title: "Café checkout outage – EU", has: "€200"},
		{name: "UTF-8 byte order mark over a windows-1252 meta", data: append([]byte("\xef\xbb\xbf"), charsetPage(`<meta charset="windows-1252">`, utf8Body)...),
			title: "Café checkout outage – EU", has: "Zürich failed; refunds cost €200"},
		{name: "lying declaration: ISO-8859-1 over UTF-8 bytes", data: charsetPage(`<meta charset="iso-8859-1">`, utf8Body),
			title: "Café checkout outage – EU", has: "€200", note: "declares charset iso-8859-1 but its bytes are UTF-8"},
		{name: "ASCII under an unknown label", data: charsetPage(`<meta charset="x-no-such">`, ascii), title: "Checkout outage", has: "checkout API failed"},
		{name: "lying declaration: UTF-8 over windows-1252 bytes", data: charsetPage(`<meta charset="utf-8">`, body), refused: "though the page declares charset utf-8", line: 4},
		{name: "no declaration, not UTF-8", data: charsetPage("", body), refused: "declares no charset", line: 4},
		{name: "byte order mark over windows-1252 bytes", data: append([]byte("\xef\xbb\xbf"), charsetPage("", body)...), refused: "byte order mark", line: 4},
		{name: "an unknown charset", data: charsetPage(`<meta charset="x-klingon">`, body), refused: `charset "x-klingon", which cannot be decoded`},
		{name: "a charset the standard does not decode", data: charsetPage(`<meta charset="iso-2022-kr">`, body), refused: `charset "iso-2022-kr", which cannot be decoded`},
		{name: "lying declaration: Shift_JIS over windows-1252 bytes", data: charsetPage(`<meta charset="shift_jis">`, "<h1>T</h1>\n<p>Caf\xe9 \x80 x</p>"), refused: "holds a byte sequence that is not shift_jis", line: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := tt.file
			if name == "" {
				name = "pm.html"
			}
			res, err := ParseChecked(Input{Name: name, Data: tt.data}, tt.format)
			if tt.refused != "" {
				ie, ok := err.(*incident.Error)
				if !ok || ie.Kind != incident.ErrEncoding || ie.File != name || ie.Line != tt.line || !strings.Contains(ie.Msg, tt.refused) || !strings.Contains(ie.Hint, "UTF-8") {
					t.Fatalf("got %v, %#v; want an encoding error on %s line %d saying %q, with a hint", res, err, name, tt.line, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if c.Title != tt.title || !strings.Contains(c.Narrative, tt.has) || !strings.Contains(res.Notes[0], tt.note) {
				t.Errorf("title %q, narrative %q, note %q; want %q, holding %q, note %q", c.Title, c.Narrative, res.Notes[0], tt.title, tt.has, tt.note)
			}
			if c.Start == nil || c.Start.UTC().Format("2006-01-02 15:04") != "2024-03-03 10:00" {
				t.Errorf("start %v, want 2024-03-03 10:00 UTC from the decoded text", c.Start)
			}
		})
	}
}

// TestPageCharset: the label a page declares, as a browser's prescan
// finds it.
func TestPageCharset(t *testing.T) {
	for _, tt := range []struct{ head, want string }{
		{`<meta charset="windows-1252">`, "windows-1252"},
		{`<meta charset=' koi8-r '>`, "koi8-r"},
		{`<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">`, "euc-jp"},
		{`<meta http-equiv="content-type" content='text/html;charset="gb2312"'>`, "gb2312"},
		{`<meta content="text/html; charset=big5">`, ""}, // no http-equiv: not a declaration
		{`<meta name="description" content="charset=big5">`, ""},
		{`<!-- <meta charset="big5"> --><meta charset="utf-8">`, "utf-8"},
		{`<?xml version="1.0" encoding='EUC-KR'?><html>`, "EUC-KR"},
		{strings.Repeat(" ", htmlSniffBytes) + `<meta charset="big5">`, ""}, // past the prescan
		{``, ""},
	} {
		if got := pageCharset([]byte(tt.head)); got != tt.want {
			t.Errorf("pageCharset(%.60q) = %q, want %q", tt.head, got, tt.want)
		}
	}
}
