package taxonomy

import (
	_ "embed"
	"fmt"
	"strings"

	"incidents/data/incident"
	"incidents/data/safeyaml"
)

//go:embed categories.yaml
var categoriesYAML []byte

// CategorySource is one external collection whose categories map onto the
// vocabulary (see categories.yaml).
type CategorySource struct {
	ID          string             `yaml:"id" json:"id"`
	Description string             `yaml:"description" json:"description"`
	Categories  []*CategoryMapping `yaml:"categories" json:"categories"`
}

// CategoryMapping maps one category onto tags; a case of the category is
// recognised when a tagger gives any of them. Empty Tags means unmapped.
type CategoryMapping struct {
	Name string   `yaml:"name" json:"name"`
	Tags []string `yaml:"tags" json:"tags"` // "facet:term"
	// Import lists the tags an importer puts on a case of the category, a
	// subset of Tags with at most one per facet.
	Import []string `yaml:"import" json:"import"`
	Note   string   `yaml:"note" json:"note"`

	tags    []incident.Tag
	imports []incident.Tag
}

type categoryDoc struct {
	Sources []*CategorySource `yaml:"sources"`
}

// parseCategories reads a mapping document and checks every tag against v.
func (v *Vocab) parseCategories(b []byte) (map[string]map[string]*CategoryMapping, []*CategorySource, error) {
	var doc categoryDoc
	if err := safeyaml.Unmarshal(safeyaml.Doc{Name: "categories.yaml", What: "category mapping", Strict: true,
		Hint: "sources: a list of {id, description, categories: [{name, tags: [facet:term], import: [facet:term], note}]}"}, b, &doc); err != nil {
		return nil, nil, fmt.Errorf("category mapping: %w", err)
	}
	out := map[string]map[string]*CategoryMapping{}
	for _, s := range doc.Sources {
		m := map[string]*CategoryMapping{}
		for _, c := range s.Categories {
			listed := map[string]bool{}
			for _, ft := range c.Tags {
				f, term, ok := strings.Cut(ft, ":")
				if !ok || v.Term(incident.Facet(f), term) == nil {
					return nil, nil, fmt.Errorf("category mapping %s/%s: %q is not a facet:term of the vocabulary", s.ID, c.Name, ft)
				}
				c.tags = append(c.tags, incident.Tag{Facet: incident.Facet(f), Term: term, Raw: c.Name, Origin: incident.Imported})
				listed[ft] = true
			}
			facets := map[incident.Facet]bool{}
			for _, ft := range c.Import {
				if !listed[ft] {
					return nil, nil, fmt.Errorf("category mapping %s/%s: import %q is not one of its tags", s.ID, c.Name, ft)
				}
				f, term, _ := strings.Cut(ft, ":")
				if facets[incident.Facet(f)] {
					return nil, nil, fmt.Errorf("category mapping %s/%s: imports two %s tags", s.ID, c.Name, f)
				}
				facets[incident.Facet(f)] = true
				c.imports = append(c.imports, incident.Tag{Facet: incident.Facet(f), Term: term, Raw: c.Name, Origin: incident.Imported})
			}
			k := NormalizeKey(c.Name)
			if _, dup := m[k]; dup {
				return nil, nil, fmt.Errorf("category mapping %s: %q is listed twice", s.ID, c.Name)
			}
			m[k] = c
		}
		out[s.ID] = m
	}
	return out, doc.Sources, nil
}

func (v *Vocab) categoryIndex() map[string]map[string]*CategoryMapping {
	v.catOnce.Do(func() {
		v.cats, v.catSources, v.catErr = v.parseCategories(categoriesYAML)
	})
	return v.cats
}

// CategorySources returns the documented category mappings ("icco",
// "danluu") in file order.
func (v *Vocab) CategorySources() []*CategorySource {
	v.categoryIndex()
	return v.catSources
}

// Category returns the mapping of one category of a source, or nil.
func (v *Vocab) Category(source, category string) *CategoryMapping {
	return v.categoryIndex()[source][NormalizeKey(category)]
}

// MapCategory returns the tags (origin imported, Raw = the category) that a
// category of source ("icco" or "danluu") maps onto; nil for an unknown or
// deliberately unmapped category.
func (v *Vocab) MapCategory(source, category string) []incident.Tag {
	c := v.Category(source, category)
	if c == nil {
		return nil
	}
	return withRaw(c.tags, category)
}

// withRaw returns a copy of tags with Raw set to raw; nil for no tags.
func withRaw(tags []incident.Tag, raw string) []incident.Tag {
	if len(tags) == 0 {
		return nil
	}
	out := make([]incident.Tag, len(tags))
	copy(out, tags)
	for i := range out {
		out[i].Raw = raw
	}
	return out
}

// ImportCategory returns the tags (origin imported, Raw = the category) an
// importer puts on a case that source ("icco" or "danluu") files under
// category: the mapping's import list, which is empty when the category
// says too little about the case (see categories.yaml); nil for an unknown
// category.
func (v *Vocab) ImportCategory(source, category string) []incident.Tag {
	c := v.Category(source, category)
	if c == nil {
		return nil
	}
	return withRaw(c.imports, category)
}

// Recognised reports whether tags contain one of the category's mapped
// tags; a mapped root-cause class also accepts its subclasses.
func (c *CategoryMapping) Recognised(tags []incident.Tag) bool {
	for _, want := range c.tags {
		for _, t := range tags {
			if t.Facet == want.Facet && (t.Term == want.Term || want.Facet == incident.RootCause && incident.ClassOf(t.Term) == want.Term) {
				return true
			}
		}
	}
	return false
}

// Mapped reports whether the category maps onto any tag.
func (c *CategoryMapping) Mapped() bool { return len(c.tags) > 0 }

// CategoryError reports a problem in the embedded category mapping (a tag
// naming no vocabulary term, a duplicate category); nil when it is sound.
func (v *Vocab) CategoryError() error {
	v.categoryIndex()
	return v.catErr
}
