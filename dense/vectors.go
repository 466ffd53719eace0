package dense

// Vectors returns every unit's ID (DOC#i) and its unit vector, in index order: what
// a search engine indexes so that its kNN searches the very vectors this searcher searches exactly
// (package engine). The slices are copies.
func (s *Searcher) Vectors() (ids []string, vecs [][]float32) {
	x := s.index
	ids = append([]string(nil), x.IDs...)
	vecs = make([][]float32, len(x.IDs))
	for i := range vecs {
		vecs[i] = append([]float32(nil), x.Vecs[i*x.Dim:(i+1)*x.Dim]...)
	}
	return ids, vecs
}
