package ingest

import (
	"strings"
	"testing"
	"time"
)

// TestDatesOtherLanguages: dates, windows and zones as French, German and
// Spanish notes write them give the case its start and end; "Uhr" and the
// German zone names (MEZ, MESZ) are read, French clock times ("10h02")
// too. Before, none of these gave a time.
func TestDatesOtherLanguages(t *testing.T) {
	for _, c := range []struct {
		name, text, start, end string
	}{
		{"German, MEZ", "# Störung der Anmeldung\n\nAm 14. Februar 2025 von 10:02 bis 11:40 Uhr (MEZ) konnten sich Mitarbeitende nicht anmelden.\nUrsache: das Zertifikat war abgelaufen.\n",
			"2025-02-14T09:02:00Z", "2025-02-14T10:40:00Z"},
		{"German, MESZ, zwischen", "# Störung im Zahlungsverkehr\n\nAm 3. Juli 2025 fiel der Dienst zwischen 08:15 und 09:05 Uhr MESZ aus.\nUrsache: ein fehlerhaftes Deployment.\n",
			"2025-07-03T06:15:00Z", "2025-07-03T07:05:00Z"},
		{"French, 10h02", "# Panne de la passerelle de paiement\n\nLe 12 mars 2025, de 10h02 à 11h40 CET, la passerelle a rejeté toutes les transactions.\nCause racine : le magasin de confiance n'a pas été mis à jour.\n",
			"2025-03-12T09:02:00Z", "2025-03-12T10:40:00Z"},
		{"French, 1er and abbreviation", "# Panne du stockage\n\nLe 1er févr. 2025 entre 14:00 et 15:30 UTC le stockage était indisponible suite à une panne.\n",
			"2025-02-01T14:00:00Z", "2025-02-01T15:30:00Z"},
		{"Spanish", "# Caída del servicio de pagos\n\nEl 3 de marzo de 2025, entre 10:00 y 11:15 UTC, el servicio de pagos rechazó todas las tarjetas.\nCausa raíz: un certificado caducado.\n",
			"2025-03-03T10:00:00Z", "2025-03-03T11:15:00Z"},
		{"English still", "# Checkout outage\n\nOn 5 April 2025 from 01:13 to 01:35 PDT checkout failed.\n",
			"2025-04-05T08:13:00Z", "2025-04-05T08:35:00Z"},
		{"German, window at the end of a sentence", "# Störung der Anmeldung\n\nAm 3. März 2025 fiel die Anmeldung aus, von 10:02 bis 11:40.\n",
			"2025-03-03T10:02:00Z", "2025-03-03T11:40:00Z"},
		{"German, Mrz.", "# Störung der Anmeldung\n\nAm 3. Mrz. 2025 von 10:02 bis 11:40 Uhr MEZ fiel die Anmeldung aus.\n",
			"2025-03-03T09:02:00Z", "2025-03-03T10:40:00Z"},
		{"German, um", "# Störung der Anmeldung\n\nAm Montag, 3. März 2025 um 10:02 Uhr MEZ fiel die Anmeldung aus.\n",
			"2025-03-03T09:02:00Z", "none"},
		{"French, sept. and et after the window", "# Panne des paiements\n\nLe 3 sept. 2025 de 10h02 à 11h40 et sans alerte, les paiements ont échoué.\n",
			"2025-09-03T10:02:00Z", "2025-09-03T11:40:00Z"},
		{"French, the hour alone", "# Panne des paiements\n\nLe 3 mars 2025, de 10h à 11h40 CET, les paiements ont échoué.\n",
			"2025-03-03T09:00:00Z", "2025-03-03T10:40:00Z"},
		{"French, a duration is no window", "# Panne des paiements\n\nLe 3 mars 2025, un retard de 2h à 3h sur les paiements.\n",
			"none", "none"},
		{"French, à", "# Panne des paiements\n\nLe lundi 3 mars 2025 à 10h02 CET la passerelle est tombée.\n",
			"2025-03-03T09:02:00Z", "none"},
		{"Spanish, las", "# Caída de pagos\n\nEl 3 de marzo de 2025, desde las 10:02 hasta las 11:40 CET, fallaron los pagos.\n",
			"2025-03-03T09:02:00Z", "2025-03-03T10:40:00Z"},
		{"Spanish, dic.", "# Caída de pagos\n\nEl 3 de dic. de 2025 de las 10:02 a las 11:40 UTC fallaron los pagos.\n",
			"2025-12-03T10:02:00Z", "2025-12-03T11:40:00Z"},
		{"Spanish, a las", "# Caída de pagos\n\nEl 3 de marzo de 2025 a las 10:02 CET fallaron los pagos.\n",
			"2025-03-03T09:02:00Z", "none"},
		{"German, whole hours", "# Störung der Anmeldung\n\nAm 3. März 2025 fiel die Anmeldung von 9 bis 10 Uhr MEZ aus.\n",
			"2025-03-03T08:00:00Z", "2025-03-03T09:00:00Z"},
		{"German, 8.30 Uhr", "# Störung der Anmeldung\n\nAm 3. März 2025 um 8.30 Uhr MEZ fiel die Anmeldung aus.\n",
			"2025-03-03T07:30:00Z", "none"},
		{"German, a count is no time", "# Störung der Anmeldung\n\nAm 3. März 2025 fiel die Anmeldung für 2 Stunden aus.\n",
			"none", "none"},
		{"French, à 10h", "# Panne des paiements\n\nLe 3 mars 2025 à 10h CET la passerelle est tombée.\n",
			"2025-03-03T09:00:00Z", "none"},
		{"German, over days", "# Störung der Anmeldung\n\nDie Anmeldung fiel vom 11.08.2025 06:00 bis 13.08.2025 18:00 Uhr MESZ aus.\n",
			"2025-08-11T04:00:00Z", "2025-08-13T16:00:00Z"},
		{"German, over days, first day without its year", "# Störung der Anmeldung\n\nDie Anmeldung fiel vom 11.08. 06:00 bis 13.08.2025 18:00 Uhr MESZ aus.\n",
			"2025-08-11T04:00:00Z", "2025-08-13T16:00:00Z"},
		{"German, over the new year, first day without its year", "# Störung der Anmeldung\n\nDie Anmeldung fiel vom 30.12. 22:00 bis 02.01.2025 06:00 Uhr MEZ aus.\n",
			"2024-12-30T21:00:00Z", "2025-01-02T05:00:00Z"},
		{"French, over days", "# Panne des paiements\n\nLes paiements ont échoué du 11 août 2025 à 6h00 au 13 août 2025 à 18h00 et personne n'a été alerté.\n",
			"2025-08-11T06:00:00Z", "2025-08-13T18:00:00Z"},
		{"Spanish, over days", "# Caída de pagos\n\nLos pagos fallaron desde el 11 de agosto de 2025 a las 06:00 hasta el 13 de agosto de 2025 a las 18:00 CEST.\n",
			"2025-08-11T04:00:00Z", "2025-08-13T16:00:00Z"},
		{"CEST in summer", "# Checkout outage\n\nOn 3 July 2025 from 10:02 to 11:40 CEST checkout failed.\n",
			"2025-07-03T08:02:00Z", "2025-07-03T09:40:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "note.md", Data: []byte(c.text), Opts: Options{Org: "Acme"}}, "")
			if err != nil {
				t.Fatal(err)
			}
			in := res.Incidents[0]
			if got := stampOf(in.Start); got != c.start {
				t.Errorf("start %s, want %s (notes %v)", got, c.start, res.Notes)
			}
			if got := stampOf(in.Resolved); got != c.end {
				t.Errorf("resolved %s, want %s", got, c.end)
			}
		})
	}
}

func stampOf(t *time.Time) string {
	if t == nil {
		return "none"
	}
	return t.UTC().Format(time.RFC3339)
}

// TestFindDayOtherLanguages is findDay on the day forms alone, and on
// words that only look like months.
func TestFindDayOtherLanguages(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"le 14 février 2025", "2025-02-14"},
		{"le 14 fevrier 2025", "2025-02-14"},
		{"am 3. März 2025", "2025-03-03"},
		{"am 3. Maerz 2025", "2025-03-03"},
		{"14. Mai 2024", "2024-05-14"},
		{"el 3 de marzo de 2025", "2025-03-03"},
		{"2 agosto 2023", "2023-08-02"},
		{"am 3. Mrz. 2025", "2025-03-03"},
		{"le 3 sept. 2025", "2025-09-03"},
		{"le 3 oct. 2025", "2025-10-03"},
		{"le 3 nov. 2025", "2025-11-03"},
		{"el 3 de dic. de 2025", "2025-12-03"},
		{"el 3 de ene. de 2025", "2025-01-03"},
		{"3 ago. 2025", "2025-08-03"},
		{"sept 2025", ""},
		{"31 juin 2025", ""}, // no such day
		{"the maintenance of 2025", ""},
		{"3 mains 2025", ""},
	} {
		got := ""
		if d, _, ok := findDay(c.text); ok {
			got = d.String()
		}
		if got != c.want {
			t.Errorf("findDay(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestEmailLendsYear: an email whose body dates the incident without a
// year ("On 14 March, between 09:10 and 10:25 UTC") is dated by the year
// it was sent, the year before when the day would fall after the mail;
// the note says so. Without a Date header nothing is dated.
func TestEmailLendsYear(t *testing.T) {
	body := "\n\nHi all,\n\nOn %s, between 09:10 and 10:25 UTC, the payments API returned errors for every card.\n\nRoot cause: an expired intermediate certificate.\n"
	for _, c := range []struct {
		name, date, day, start string
	}{
		{"same year", "Date: Tue, 18 Mar 2025 10:14:02 +0100\n", "14 March", "2025-03-14T09:10:00Z"},
		{"month first", "Date: Tue, 18 Mar 2025 10:14:02 +0100\n", "March 14", "2025-03-14T09:10:00Z"},
		{"the year before", "Date: Fri, 3 Jan 2025 08:00:00 +0000\n", "29 December", "2024-12-29T09:10:00Z"},
		{"Outlook's Sent line", "Sent: Tuesday, March 18, 2025 10:14 AM\n", "Tuesday 14 March", "2025-03-14T09:10:00Z"},
		{"a year stated is kept", "Date: Tue, 18 Mar 2025 10:14:02 +0100\n", "14 March 2023", "2023-03-14T09:10:00Z"},
		{"no date header", "", "14 March", "none"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := "From: lead@example.internal\nTo: eng@example.internal\n" + c.date + "Subject: Payments outage\n" + strings.Replace(body, "%s", c.day, 1)
			res, err := ParseChecked(Input{Name: "mail.txt", Data: []byte(text), Opts: Options{Org: "Acme"}}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			in := res.Incidents[0]
			if got := stampOf(in.Start); got != c.start {
				t.Errorf("start %s, want %s (notes %v)", got, c.start, res.Notes)
			}
			lent := strings.Contains(strings.Join(res.Notes, "\n"), "read in the year the email was sent")
			if wantLent := c.start != "none" && !strings.Contains(c.day, "20"); lent != wantLent {
				t.Errorf("note of the lent year %v, want %v: %v", lent, wantLent, res.Notes)
			}
			if !strings.Contains(in.Narrative, "On "+c.day+",") {
				t.Errorf("the narrative must keep the date as written: %q", in.Narrative)
			}
		})
	}
}
