package usage

// Purpose is what a crawler does with the content it fetches, the
// question it asks a Usage (For): an index into Purposes.
type Purpose uint8

// The purposes a crawler declares.
const (
	// PurposeTrain trains a generative AI model (vocab-08 section 4.1).
	PurposeTrain Purpose = iota
	// PurposeAIUse feeds the content to a generative AI model at answer
	// time, the user not having provided it (vocab-08 section 4.2).
	PurposeAIUse
	// PurposeSearch builds a search index and answers searches with links
	// to the content (vocab-08 section 4.3), training and running models
	// for that application alone included (section 4.3 paragraph 6).
	PurposeSearch
	numPurposes
)

// PurposeTerm describes one purpose.
type PurposeTerm struct {
	// Name is the purpose's name in outputs ("train").
	Name string
	// Uses are the categories of use the purpose's use falls into. The
	// statement's answer for them is Usage.Preference(Uses...): a category
	// that overrides the others (Term.Overrides) decides alone.
	Uses []Category
	// Signal is the Content-Signal key that asks the closest question,
	// read when the categories decide nothing.
	Signal SignalKey
	// Level is the least use level (Cloudflare's use key) the purpose
	// needs by the definitions of Levels, for a crawler that declares no
	// level of its own: training needs full ("including AI training"), an
	// index reference ("retained, indexed, or cited"), a single answer
	// that keeps nothing immediate.
	Level Level
}

// Purposes are the purposes, by Purpose. With Vocabulary they are what a
// new vocabulary draft changes.
var Purposes = [numPurposes]PurposeTerm{
	PurposeTrain:  {Name: "train", Uses: []Category{TrainAI}, Signal: SignalAITrain, Level: LevelFull},
	PurposeAIUse:  {Name: "ai-use", Uses: []Category{AIUse}, Signal: SignalAIInput, Level: LevelImmediate},
	PurposeSearch: {Name: "search", Uses: []Category{Search, TrainAI, AIUse}, Signal: SignalSearch, Level: LevelReference},
}

// AllPurposes returns every purpose, in table order.
func AllPurposes() []Purpose {
	p := make([]Purpose, numPurposes)
	for i := range p {
		p[i] = Purpose(i)
	}
	return p
}

// String returns the purpose's name.
func (p Purpose) String() string {
	if p >= numPurposes {
		return ""
	}
	return Purposes[p].Name
}

// Preference returns what the Content-Usage lines and field say of a use
// that falls into the categories cats, with the decision that says it.
// When one of them overrides the others (vocab-08 section 4.3 paragraph
// 7: Search "overrides any usage that falls into other categories"), the
// overriding ones alone decide; otherwise every one of cats does. Several
// deciding categories combine as statements do (Combine, the most
// restrictive winning), the decision kept being the one of the lowest line
// that states the combined value. No category, or none this package
// knows, is Unknown.
func (u Usage) Preference(cats ...Category) Decision {
	overriding := false
	for _, c := range cats {
		if c < numCategories && Vocabulary[c].Overrides {
			overriding = true
		}
	}
	var d Decision
	for _, c := range cats {
		if c >= numCategories || (overriding && !Vocabulary[c].Overrides) {
			continue
		}
		d = merge(d, u.Category(c))
	}
	return d
}

// For answers whether a crawler of purpose p may use the content: the
// Content-Usage answer for the purpose's categories (Preference) when it
// is Yes or No; else the Content-Signal answer for its key when it is Yes
// or No; else Unknown. The Decision says which source and line decided.
// The use level is another question (MayUseAt); docs/usage.md gives the
// reasons for this order and how to combine the two.
func (u Usage) For(p Purpose) Decision {
	if p >= numPurposes {
		return Decision{}
	}
	if d := u.Preference(Purposes[p].Uses...); d.Value != Unknown {
		return d
	}
	if d := u.Signal(Purposes[p].Signal); d.Value != Unknown {
		return d
	}
	return Decision{}
}

// MayTrain answers whether the content may be used to train an AI model:
// For(PurposeTrain), the Content-Usage train-ai decision when it is Yes or
// No, else the Content-Signal ai-train decision when it is Yes or No, else
// Unknown.
func (u Usage) MayTrain() Decision { return u.For(PurposeTrain) }
