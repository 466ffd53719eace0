package embed

// The unexported helpers the external tests (package embed_test) use.

type Manifest = manifest

var (
	FindManifest = findManifest
	ReadVocab    = readVocab
	ReadVectors  = readVectors
)

func (m manifest) VocabPath() string     { return m.vocabPath() }
func (m manifest) TokenizerPath() string { return m.tokenizerPath() }
