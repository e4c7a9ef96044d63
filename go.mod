module incidents

go 1.26.0

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0 // browser tests in Debian chromium; v0.23 speaks its DevTools protocol
	github.com/chzyer/readline v1.5.1
	github.com/duckdb/duckdb-go/v2 v2.10506.0 // DuckDB 1.5.6; the database file format follows this version
	github.com/go-echarts/go-echarts/v2 v2.6.7 // chart options for the report; ECharts itself comes from npm (Makefile)
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // strict JSON reading: a case file that names a field twice is refused
	github.com/goccy/go-yaml v1.19.2
	github.com/google/jsonschema-go v0.4.3 // the go-sdk's schema library: output schemas of the MCP tools
	github.com/kljensen/snowball v0.10.0
	github.com/modelcontextprotocol/go-sdk v1.8.0 // the MCP protocol version the server speaks
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/spf13/cobra v1.10.2
	github.com/yuin/goldmark v1.8.7
	golang.org/x/net v0.63.0 // the HTML parser of the html ingest format
	golang.org/x/sys v0.50.0 // FICLONE for the copy a fold of the log makes (data/store)
	golang.org/x/term v0.48.0
	golang.org/x/text v0.44.0 // the charsets of web pages not saved as UTF-8 (html ingest); the version golang.org/x/net v0.63.0 requires
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/apache/arrow-go/v18 v18.5.1 // indirect
	github.com/duckdb/duckdb-go-bindings v0.10506.0 // indirect; pinned to the version duckdb-go v2.10506.0 was built against; a newer one is refused by the module proxy
	github.com/duckdb/duckdb-go-bindings/lib/darwin-amd64 v0.10506.0 // indirect
	github.com/duckdb/duckdb-go-bindings/lib/darwin-arm64 v0.10506.0 // indirect
	github.com/duckdb/duckdb-go-bindings/lib/linux-amd64 v0.10506.0 // indirect
	github.com/duckdb/duckdb-go-bindings/lib/linux-arm64 v0.10506.0 // indirect
	github.com/duckdb/duckdb-go-bindings/lib/windows-amd64 v0.10506.0 // indirect
	github.com/go-viper/mapstructure/v2 v2.5.0 // indirect
	github.com/goccy/go-json v0.10.5 // indirect
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/klauspost/compress v1.18.3 // indirect
	github.com/klauspost/cpuid/v2 v2.3.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pierrec/lz4/v4 v4.1.25 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	golang.org/x/exp v0.0.0-20260112195511-716be5621a96 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/telemetry v0.0.0-20261009151841-97e8ea77aa2a // indirect
	golang.org/x/time v0.15.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	golang.org/x/xerrors v0.0.0-20240903120638-7835f813f4da // indirect
)
