// Package safeyaml is the one way the project decodes YAML: Markdown front
// matter, the similarity config (--config), the vocabulary, the category
// mapping and the related-case labels all go through Unmarshal.
//
// YAML is cheap to write and can be expensive to read. Unmarshal refuses,
// before the decoder sees the document:
//
//   - nesting deeper than MaxDepth levels (the parser's time and memory
//     grow with the square of the depth), judged on the text before it is
//     parsed;
//   - aliases that expand to more than MaxAliasValues values in all (nine
//     levels of anchors repeating each other nine times make a 450-byte
//     "billion laughs" that took 3 GB and 40 s to decode), judged on the
//     parsed document, where an alias is still one node.
//
// goccy/go-yaml, the project's YAML library, has no option for either
// (v1.19.2: its decoder only stops at 10,000 levels of recursion).
//
// Every error is an *incident.Error naming the file, the line in the file
// (Doc.Line says where the document starts), the top-level key where it
// is known, and a hint of what the document holds (Doc.Hint), in the words
// of the document's reader: a front matter error never talks of configs.
package safeyaml
