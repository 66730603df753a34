package usage

// Category is a category of use of the vocabulary: an index into
// Vocabulary.
type Category uint8

// The categories of draft-ietf-aipref-vocab-05 to -07. A draft that adds
// or renames a category changes this list and the Vocabulary table, and
// nothing else.
const (
	TrainAI Category = iota
	Search
	numCategories
)

// Term describes one category of use.
type Term struct {
	// Label is the dictionary key that states a preference for the
	// category; labels are case-sensitive.
	Label string
	// Name is the category's title in the draft.
	Name string
	// Drafts are the vocabulary drafts that define Label with this
	// meaning.
	Drafts string
	// Earlier names the labels earlier drafts used for a close category,
	// for the documentation only: they are not read.
	Earlier string
}

// Vocabulary is the vocabulary this package reads, by Category. It is the
// one place that knows the labels.
var Vocabulary = [numCategories]Term{
	TrainAI: {
		Label:   "train-ai",
		Name:    "AI Model Training",
		Drafts:  "vocab-02 to -07 (titled AI Training in -02 and -03, Foundation Model Production in -04 and -05)",
		Earlier: "ai and genai (vocab-01); train-genai beside it (vocab-02, -03); tdm (vocab-01), all (vocab-02) and bots (vocab-03, -04) covered every automated use",
	},
	Search: {
		Label:   "search",
		Name:    "Search",
		Drafts:  "vocab-01 to -07",
		Earlier: "the same label since vocab-01; a part of ai-output in vocab-04; inference (vocab-01) and ai-use (vocab-02) were neighbouring categories, since dropped",
	},
}

// RetiredLabels are the labels of earlier vocabulary drafts that the
// current one no longer defines, with the drafts that used them. They are
// not read (a statement writing them states nothing); lint names them.
var RetiredLabels = map[string]string{
	"tdm":         "vocab-01",
	"ai":          "vocab-01",
	"genai":       "vocab-01",
	"inference":   "vocab-01",
	"all":         "vocab-02",
	"train-genai": "vocab-02 and -03",
	"ai-use":      "vocab-02",
	"bots":        "vocab-03 and -04",
	"ai-output":   "vocab-04",
}

// Categories returns every category, in table order.
func Categories() []Category {
	c := make([]Category, numCategories)
	for i := range c {
		c[i] = Category(i)
	}
	return c
}

// Label returns the category's dictionary key ("train-ai").
func (c Category) Label() string {
	if int(c) >= len(Vocabulary) {
		return ""
	}
	return Vocabulary[c].Label
}

// String returns the category's label.
func (c Category) String() string { return c.Label() }

// CategoryOf returns the category whose label is exactly label.
func CategoryOf(label string) (Category, bool) {
	for i, t := range Vocabulary {
		if t.Label == label {
			return Category(i), true
		}
	}
	return 0, false
}
