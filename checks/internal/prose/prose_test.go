package prose

import "testing"

func TestParse(t *testing.T) {
	d := Parse("---\nname: x\ndescription: many words here that are not prose\n---\n# Title\n\nOne two three `code span here` four.\n<!-- hidden words\nacross lines -->\n## Usage\n\n```bash\nrun it\n```\n\nFive six.\n")
	if got := Words(d.Prose); got != 8 { // Title, One two three four, Usage, Five six
		t.Errorf("words %d in %q", got, d.Prose)
	}
	if len(d.Code) != 1 || d.Code[0] != "run it" {
		t.Errorf("code %q", d.Code)
	}
	if len(d.Headings) != 2 || d.Headings[1].Text != "Usage" || d.Headings[1].Content != 3 {
		t.Errorf("headings %+v", d.Headings)
	}
	if len(d.Blocks) != 2 {
		t.Errorf("blocks %q", d.Blocks)
	}
}

func TestNormalize(t *testing.T) {
	if a, b := Normalize("**Always** check the  output, then _commit_."), Normalize("always check the output then commit"); a != b {
		t.Errorf("%q != %q", a, b)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"---\na: b\n---\n# h\n```\nx\n", "<!-- a", "~~~\n~~~\n`x", "\r\n---\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := Parse(s)
		if Words(d.Prose) > len(s) {
			t.Fatal("more words than bytes")
		}
	})
}
