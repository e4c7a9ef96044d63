package taxonomy

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// The shipped root-cause model, written by `go generate ./taxonomy` (see
// internal/modelgen) from the human-tagged bundled cases and the
// development half of the icco labels.
//
//go:generate go run ./internal/modelgen -out model/root_cause.json
//go:embed model/root_cause.json
var shippedModelJSON []byte

// modelFormat is the version of the model file layout.
const modelFormat = 1

// modelDigits is the number of significant digits a model file keeps of
// each number: enough for the decisions, few enough that the file is small
// and its bytes do not depend on the last bits of floating-point sums.
const modelDigits = 6

// modelHeader is the model file without its inputs.
type modelHeader struct {
	Format int `json:"format"`
	// Vocabulary is the SHA-256 of the vocabulary the rule inputs were
	// computed with; a model for another vocabulary is stale.
	Vocabulary  string         `json:"vocabulary"`
	Settings    TrainSettings  `json:"settings"`
	Labels      []string       `json:"labels"`
	Classes     []string       `json:"classes"`
	Words       int            `json:"words"`
	Bias        []float64      `json:"bias"`
	Shared      []float64      `json:"shared"`
	Calibration *Calibration   `json:"calibration"`
	TrainedOn   []string       `json:"trained_on"`
	Sources     map[string]int `json:"sources,omitempty"`
	// Level is "term" for a term model (its classes are terms, see
	// featureSpace.Terms), empty for a class model.
	Level string `json:"level,omitempty"`
}

// levelTerm is the Level of a term model.
const levelTerm = "term"

// modelInput is one input of a model file: its name ("rule:CLASS:score",
// "rule:CLASS:best" or "word:STEM"), its IDF (words only) and one weight
// per label.
type modelInput struct {
	Name    string
	IDF     float64
	Weights []float64
}

// VocabularyDigest is the SHA-256 of the embedded vocabulary file.
func VocabularyDigest() string {
	h := sha256.Sum256(vocabYAML)
	return hex.EncodeToString(h[:])
}

// Encode writes the model as its file: a JSON header line, then the inputs
// one per line, every number rounded to modelDigits significant digits,
// then the term model (Terms) the same way under "terms" when there is one.
// sources counts the training cases by source and is recorded as given.
func (m *RootCauseModel) Encode(vocabDigest string, sources map[string]int) ([]byte, error) {
	var b bytes.Buffer
	if err := m.encode(&b, vocabDigest, sources); err != nil {
		return nil, err
	}
	if m.Terms != nil {
		b.WriteString(",\n\"terms\": ")
		if err := m.Terms.encode(&b, vocabDigest, nil); err != nil {
			return nil, err
		}
		b.WriteString("}")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// encode writes the header and inputs of one model, leaving its object open.
func (m *RootCauseModel) encode(b *bytes.Buffer, vocabDigest string, sources map[string]int) error {
	h := modelHeader{Format: modelFormat, Vocabulary: vocabDigest, Settings: m.Settings, Labels: m.Labels,
		Classes: m.fs.Classes, Words: len(m.fs.Words), Bias: roundAll(m.b), Shared: roundAll(m.u), TrainedOn: m.TrainedOn, Sources: sources}
	if m.fs.Terms {
		h.Level = levelTerm
	}
	if m.Calibration != nil {
		h.Calibration = &Calibration{X: roundAll(m.Calibration.X), Y: roundAll(m.Calibration.Y)}
	}
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	b.WriteString("{\"header\": ")
	b.Write(head)
	b.WriteString(",\n\"inputs\": [\n")
	for j := 0; j < m.fs.dim(); j++ {
		in := m.input(j)
		name, _ := json.Marshal(in.Name)
		fmt.Fprintf(b, "[%s, %s, [", name, num(in.IDF))
		for k, w := range in.Weights {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(num(w))
		}
		b.WriteString("]]")
		if j+1 < m.fs.dim() {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]")
	return nil
}

// input returns input j with its name, IDF and weights.
func (m *RootCauseModel) input(j int) modelInput {
	in := modelInput{Weights: make([]float64, len(m.Labels))}
	for k := range m.Labels {
		in.Weights[k] = m.w[k][j]
	}
	if j < m.fs.wordBase() {
		c, f := j/ruleFeatsPerClass, j%ruleFeatsPerClass
		in.Name = "rule:" + m.fs.Classes[c] + ":" + [...]string{"score", "best"}[f]
		return in
	}
	w := j - m.fs.wordBase()
	in.Name, in.IDF = "word:"+m.fs.Words[w], m.fs.IDF[w]
	return in
}

// DecodeRootCauseModel reads a model file written by Encode and returns the
// model with the vocabulary digest it was trained with.
func DecodeRootCauseModel(b []byte) (*RootCauseModel, string, error) {
	var doc struct {
		Header modelHeader       `json:"header"`
		Inputs []json.RawMessage `json:"inputs"`
		Terms  json.RawMessage   `json:"terms"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, "", fmt.Errorf("root-cause model: %w", err)
	}
	m, err := decodeModel(doc.Header, doc.Inputs)
	if err != nil {
		return nil, "", err
	}
	if len(doc.Terms) > 0 {
		tm, _, err := DecodeRootCauseModel(doc.Terms)
		if err != nil {
			return nil, "", fmt.Errorf("term model: %w", err)
		}
		if !tm.fs.Terms || tm.Terms != nil {
			return nil, "", fmt.Errorf("root-cause model: its \"terms\" model lacks level %q, or holds one of its own", levelTerm)
		}
		m.Terms = tm
	}
	if m.fs.Terms && m.Terms != nil {
		return nil, "", fmt.Errorf("root-cause model: level %q at the top of the file", levelTerm)
	}
	return m, doc.Header.Vocabulary, nil
}

// decodeModel builds one model from its header and inputs.
func decodeModel(h modelHeader, inputs []json.RawMessage) (*RootCauseModel, error) {
	if h.Format != modelFormat {
		return nil, fmt.Errorf("root-cause model: format %d, want %d", h.Format, modelFormat)
	}
	m := &RootCauseModel{Labels: h.Labels, Settings: h.Settings, Calibration: h.Calibration, TrainedOn: h.TrainedOn,
		b: h.Bias, u: h.Shared, fs: &featureSpace{Classes: h.Classes, WordScale: h.Settings.WordScale, Terms: h.Level == levelTerm}}
	if len(m.b) != len(m.Labels) {
		return nil, fmt.Errorf("root-cause model: %d biases for %d labels", len(m.b), len(m.Labels))
	}
	m.w = make([][]float64, len(m.Labels))
	for j, raw := range inputs {
		var row [3]json.RawMessage
		if err := json.Unmarshal(raw, &row); err != nil {
			return nil, fmt.Errorf("root-cause model: input %d: %w", j+1, err)
		}
		var in modelInput
		if json.Unmarshal(row[0], &in.Name) != nil || json.Unmarshal(row[1], &in.IDF) != nil || json.Unmarshal(row[2], &in.Weights) != nil || len(in.Weights) != len(m.Labels) {
			return nil, fmt.Errorf("root-cause model: input %d is not [name, idf, one weight per label]", j+1)
		}
		if err := m.addInput(j, in); err != nil {
			return nil, err
		}
	}
	if got, want := len(inputs), len(m.fs.Classes)*ruleFeatsPerClass+h.Words; got != want || h.Words == 0 {
		return nil, fmt.Errorf("root-cause model: %d inputs, want %d", got, want)
	}
	m.fs.index()
	return m, nil
}

// addInput appends input j, which must come in Encode's order.
func (m *RootCauseModel) addInput(j int, in modelInput) error {
	if j < len(m.fs.Classes)*ruleFeatsPerClass {
		c, f := j/ruleFeatsPerClass, j%ruleFeatsPerClass
		if want := "rule:" + m.fs.Classes[c] + ":" + [...]string{"score", "best"}[f]; in.Name != want {
			return fmt.Errorf("root-cause model: input %d is %q, want %q", j+1, in.Name, want)
		}
	} else {
		w, ok := strings.CutPrefix(in.Name, "word:")
		if !ok {
			return fmt.Errorf("root-cause model: input %d is %q, want a word", j+1, in.Name)
		}
		m.fs.Words = append(m.fs.Words, w)
		m.fs.IDF = append(m.fs.IDF, in.IDF)
	}
	for k, x := range in.Weights {
		m.w[k] = append(m.w[k], x)
	}
	return nil
}

func num(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return "0"
	}
	return strconv.FormatFloat(x, 'g', modelDigits, 64)
}

func roundAll(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i], _ = strconv.ParseFloat(num(x), 64)
	}
	return out
}

var (
	shippedOnce   sync.Once
	shippedModel  *RootCauseModel
	shippedDigest string
)

// ShippedModel returns the embedded root-cause model and the digest of the
// vocabulary it was trained with (compare VocabularyDigest). It panics only
// if the embedded file is invalid, which the package tests rule out.
func ShippedModel() (*RootCauseModel, string) {
	shippedOnce.Do(func() {
		m, d, err := DecodeRootCauseModel(shippedModelJSON)
		if err != nil {
			panic("taxonomy: embedded " + err.Error())
		}
		shippedModel, shippedDigest = m, d
	})
	return shippedModel, shippedDigest
}

// Shipped returns the tagger a fresh database gets: the embedded
// vocabulary's rules and the embedded root-cause model.
func Shipped() *Tagger {
	m, _ := ShippedModel()
	return NewTagger(Default(), m)
}
