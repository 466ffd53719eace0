package lab

// SweepK returns the metrics for k = 1..N (N = s.Size candidates) at the state's rerank depth,
// grade threshold and denominator: element i is k = i+1. It validates the state first.
func (s State) SweepK() ([]Metrics, error) {
	syn, err := s.checked()
	if err != nil {
		return nil, err
	}
	return s.sweepK(syn), nil
}

// SweepRerank returns the metrics for rerank depth 0..N at the state's k: element i is depth i
// (0 = the first-stage order). It validates the state first.
func (s State) SweepRerank() ([]Metrics, error) {
	syn, err := s.checked()
	if err != nil {
		return nil, err
	}
	return s.sweepRerank(syn), nil
}

// SweepKFor is SweepK on a given ranking (see OutcomeFor).
func (s State) SweepKFor(syn Synthetic) ([]Metrics, error) {
	if err := s.validateFor(syn); err != nil {
		return nil, err
	}
	return s.sweepK(syn), nil
}

// SweepRerankFor is SweepRerank on a given ranking (see OutcomeFor).
func (s State) SweepRerankFor(syn Synthetic) ([]Metrics, error) {
	if err := s.validateFor(syn); err != nil {
		return nil, err
	}
	return s.sweepRerank(syn), nil
}

func (s State) sweepK(syn Synthetic) []Metrics {
	order := RerankOrder(syn.Candidates, s.Rerank)
	out := make([]Metrics, len(syn.Candidates))
	for i := range out {
		out[i] = s.metrics(syn, order, i+1, s.Rerank)
	}
	return out
}

func (s State) sweepRerank(syn Synthetic) []Metrics {
	out := make([]Metrics, len(syn.Candidates)+1)
	for d := range out {
		out[d] = s.metrics(syn, RerankOrder(syn.Candidates, d), s.K, d)
	}
	return out
}
