package eval

var prefsNames = []string{"prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"}

type Prefs map[string][]Pref
type Pref struct {
	JG, JSG, Doc string
	Level        float64
}
type QrelsJG map[string]map[string]map[string]int

func ReadPrefsFile(path string) (Prefs, error)      { return nil, nil }
func ReadQrelsPrefsFile(path string) (Prefs, error) { return nil, nil }
func ReadQrelsJGFile(path string) (QrelsJG, error)  { return nil, nil }
func (opt Options) EvaluatePrefs(p Prefs, run Run, ms ...Measure) (Result, error) {
	return Result{}, nil
}
func (opt Options) EvaluateJG(p QrelsJG, run Run, ms ...Measure) (Result, error) {
	return Result{}, nil
}
