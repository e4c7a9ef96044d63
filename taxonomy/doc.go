// Package taxonomy holds the project's controlled vocabulary (vocab.yaml,
// embedded): facets and terms with labels, descriptions, aliases and match
// patterns. It normalises imported free-form tags onto terms and assigns tags
// automatically from narratives. The vocabulary is defined here once; every
// other package reads it through Default.
package taxonomy
