package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"incidents/data"
	"incidents/data/incident"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

func main() {
	corpusDir := flag.String("corpus", "../../shared/corpora/icco-postmortems", "directory of the icco postmortems")
	out := flag.String("out", "", "write the trained model to this file")
	report := flag.Bool("report", false, "print development figures and write nothing")
	heldOut := flag.Bool("heldout", false, "with -report: also score the held-out half")
	verbose := flag.Bool("v", false, "with -report: print the tables and the development errors")
	sweep := flag.Bool("sweep", false, "compare training settings on the development data")
	danluu := flag.String("danluu", "../../shared/corpora/danluu-post-mortems/README.md", "with -sweep: the danluu list, whose sections naming a root cause are scored too (\"\" for none)")
	explain := flag.String("explain", "", "print how the shipped tagger reads the cases of this file")
	flag.Parse()
	v := taxonomy.Default()
	if *explain != "" {
		if err := runExplain(v, *explain); err != nil {
			fmt.Fprintln(os.Stderr, "modelgen:", err)
			os.Exit(1)
		}
		return
	}
	c, err := loadCorpus(context.Background(), v, *corpusDir)
	if err == nil {
		switch {
		case *sweep:
			var sections []*incident.Incident
			if sections, err = loadSections(context.Background(), *danluu); err == nil {
				err = runSweep(v, c, sections)
			}
		case *report:
			err = runReport(v, c, *heldOut, *verbose)
		case *out != "":
			var b []byte
			if b, err = modelFile(v, c); err == nil {
				err = os.WriteFile(*out, b, 0o644)
			}
		default:
			err = fmt.Errorf("give -out FILE, -report or -sweep")
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "modelgen:", err)
		os.Exit(1)
	}
}

// modelFile trains the shipped model and returns its file.
func modelFile(v *taxonomy.Vocab, c *corpus) ([]byte, error) {
	set, err := training.ShippedSet(v, c.icco)
	if err != nil {
		return nil, err
	}
	return training.Train(v, set).Encode(taxonomy.VocabularyDigest(), set.Sources)
}

func runReport(v *taxonomy.Vocab, c *corpus, heldOut, verbose bool) error {
	rules := taxonomy.NewRuleTagger(v)
	devCases, devRefs := training.Labelled(c.icco, c.labels, data.Dev)
	printReport(score(rules, "bundled (rules)", c.bundled, c.brefs), verbose)
	printReport(score(rules, "icco dev (rules)", devCases, devRefs), verbose)
	set, err := training.ShippedSet(v, c.icco)
	if err != nil {
		return err
	}
	t := taxonomy.NewTagger(v, training.Train(v, set))
	for _, part := range []struct {
		name  string
		cases []*incident.Incident
		refs  []taxonomy.Reference
	}{{"bundled (model, out of fold)", c.bundled, c.brefs}, {"icco dev (model, out of fold)", devCases, devRefs}} {
		preds, _, err := training.Predictions(t, part.cases, set)
		if err != nil {
			return err
		}
		r := taxonomy.ScoreRootCauses(v, part.name, part.refs, preds)
		printReport(r, verbose)
		if verbose && part.cases[0] == devCases[0] {
			printErrors(c, part.refs, preds)
		}
	}
	printFacets(t, c, devCases)
	if heldOut {
		cases, refs := training.Labelled(c.icco, c.labels, data.HeldOut)
		preds, _, err := training.Predictions(t, cases, set)
		if err != nil {
			return err
		}
		printReport(taxonomy.ScoreRootCauses(v, "icco held-out (model)", refs, preds), verbose)
	}
	return nil
}

func score(t *taxonomy.Tagger, name string, cases []*incident.Incident, refs []taxonomy.Reference) *taxonomy.RootCauseReport {
	var preds []taxonomy.Prediction
	for _, in := range cases {
		preds = append(preds, t.Predict(in.ID, t.Vocab().ReadCase(in)))
	}
	return taxonomy.ScoreRootCauses(t.Vocab(), name, refs, preds)
}

func printReport(r *taxonomy.RootCauseReport, tables bool) {
	fmt.Printf("== %s: %d cases, macro-F1 %.3f (stated classes %.3f), accuracy %.3f, term accuracy %.3f, coverage %d/%d = %.3f\n",
		r.Name, r.Cases, r.MacroF1, r.MacroF1Stated, r.Accuracy, r.TermAccuracy, r.Covered, r.Stated, r.Coverage())
	if !tables {
		return
	}
	for _, tb := range []func() ([]string, [][]string){r.Table, r.ConfusionTable, r.ReliabilityTable} {
		h, rows := tb()
		fmt.Println(strings.Join(h, "\t"))
		for _, row := range rows {
			fmt.Println(strings.Join(row, "\t"))
		}
		fmt.Println()
	}
}

// printErrors lists the development cases whose class was missed, with the
// labeller's note and the evidence given.
func printErrors(c *corpus, refs []taxonomy.Reference, preds []taxonomy.Prediction) {
	for i, r := range refs {
		p := preds[i]
		if p.Class == r.Class || p.Term == "" && r.Class == taxonomy.NoCause {
			continue
		}
		l, _ := c.labels.Get(r.ID)
		fmt.Printf("%s  ref %-32s pred %-32s %.2f  [%s]\n      %s\n", r.ID[:8], r.Term, p.Term, p.Confidence, l.Note, p.Evidence)
	}
}

// printFacets scores the trigger and component tags of the icco cases
// against the labels' lists (which name at most two triggers and three
// components, so precision is a lower bound).
func printFacets(t *taxonomy.Tagger, c *corpus, cases []*incident.Incident) {
	var labelled []*incident.Incident
	for _, in := range cases {
		l, _ := c.labels.Get(in.ID)
		cp := *in
		cp.Tags = nil
		for _, f := range []struct {
			facet incident.Facet
			terms []string
		}{{incident.Trigger, l.Trigger}, {incident.Component, l.Component}} {
			for _, term := range f.terms {
				cp.Tags = append(cp.Tags, incident.Tag{Facet: f.facet, Term: term, Origin: incident.Human})
			}
		}
		labelled = append(labelled, &cp)
	}
	h, rows := taxonomy.FacetTable(taxonomy.EvaluateFacets(t, labelled))
	fmt.Println("trigger and component against the labels' lists:")
	fmt.Println(strings.Join(h, "\t"))
	for _, r := range rows {
		fmt.Println(strings.Join(r, "\t"))
	}
}
