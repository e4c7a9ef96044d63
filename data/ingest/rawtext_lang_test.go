package ingest

import "testing"

// TestPlainNoteOtherLanguages: a note written in French, German or
// Spanish is a postmortem too; it was refused as "no importer recognises
// this file" because every incident word was English.
func TestPlainNoteOtherLanguages(t *testing.T) {
	for name, text := range map[string]string{
		"panne.md":    "# Panne de la passerelle de paiement\n\nLe 12 mars 2025 la passerelle a rejeté toutes les transactions.\nCause racine : le magasin de confiance n'a pas été mis à jour.\n",
		"stoerung.md": "# Störung der Anmeldung\n\nAm 14.02.2025 konnten sich Mitarbeitende nicht anmelden.\nUrsache: das Zertifikat war abgelaufen und niemand wurde gewarnt.\n",
		"caida.txt":   "Caída del servicio de pagos\n\nEl 3 de marzo el servicio de pagos rechazó todas las tarjetas.\nCausa raíz: un certificado caducado en el proveedor.\n",
	} {
		p, err := Detect(Input{Name: name, Data: []byte(text)})
		if err != nil || p.Name != "rawtext" {
			t.Errorf("%s: detected %q, %v; want rawtext", name, p.Name, err)
		}
	}
}
