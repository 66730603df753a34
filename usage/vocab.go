package usage

// VocabularyDraft is the vocabulary draft this package reads:
// draft-ietf-aipref-vocab-08 (14 September 2026). Its Note to Readers says
// its contents do not reflect the working group's consensus.
const VocabularyDraft = "draft-ietf-aipref-vocab-08"

// Category is a category of use of the vocabulary: an index into
// Vocabulary.
type Category uint8

// The categories of draft-ietf-aipref-vocab-08 section 4, in the order of
// its Table 1 (section 6.1). A draft that adds or renames a category
// changes this list and the Vocabulary table, and nothing else.
const (
	TrainAI Category = iota
	AIUse
	Search
	numCategories
)

// Term describes one category of use.
type Term struct {
	// Label is the dictionary key that states a preference for the
	// category; labels are case-sensitive (vocab-08 section 6.1).
	Label string
	// Name is the category's title in the draft.
	Name string
	// Section is the section of VocabularyDraft that defines it.
	Section string
	// Overrides is true for a category whose preference alone decides a
	// use that falls into it, whatever the preferences of the other
	// categories the same use falls into (vocab-08 section 4.3 paragraph
	// 7 says this of Search). Usage.Preference applies it.
	Overrides bool
	// Drafts are the vocabulary drafts that define Label, and how its
	// meaning moved between them.
	Drafts string
	// Earlier names the labels earlier drafts used for a close category,
	// for the documentation only: they are not read.
	Earlier string
}

// Vocabulary is the vocabulary this package reads, by Category. It is the
// one place that knows the labels and what each category's preference
// decides.
var Vocabulary = [numCategories]Term{
	TrainAI: {
		Label:   "train-ai",
		Name:    "AI Training",
		Section: "4.1",
		Drafts:  "vocab-02 to -08; in -08 narrowed to generative AI models (section 2 defines them; section 4.1 leaves out models used for exclusively non-generative tasks); titled AI Training in -02, -03 and -08, Foundation Model Production in -04 and -05, AI Model Training in -06 and -07",
		Earlier: "ai and genai (vocab-01); train-genai beside it (vocab-02, -03); tdm (vocab-01), all (vocab-02) and bots (vocab-03, -04) covered every automated use",
	},
	AIUse: {
		Label:   "ai-use",
		Name:    "AI Use",
		Section: "4.2",
		Drafts:  "vocab-08: an asset used as input to a generative AI model, not directly provided by the user, outside AI Training; vocab-02 used the same label for input to any trained AI/ML model, and -03 to -07 had no such category",
		Earlier: "inference (vocab-01) had vocab-02's meaning of ai-use; ai-output (vocab-04) was the use of an asset in an AI system's outputs, search results included, leaving out assets its clients provide",
	},
	Search: {
		Label:     "search",
		Name:      "Search",
		Section:   "4.3",
		Overrides: true,
		Drafts:    "vocab-01 to -08; from -08 it overrides the other categories for a use that falls into it (section 4.3 paragraph 7)",
		Earlier:   "the same label since vocab-01; a part of ai-output in vocab-04",
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
