# The two commands of the README:
#   make lab   – set up GoNB + Jupyter (idempotent) and open the lab notebook
#   make test  – run every test: gofmt, go vet, Go tests (fuzz seeds, trec_eval parity),
#                then every scripts/check-*.sh (notebooks executed, charts drawn in Chromium, ...)
.PHONY: lab test setup setup-ci notebooks strip-notebooks gotest

lab:
	bash kernel-setup/setup.sh
	bash kernel-setup/open-lab.sh

test:
	bash scripts/test-all.sh

# set-up only (setup-ci adds Chromium, fonts, python3-scipy and playwright-core)
setup:
	bash kernel-setup/setup.sh
setup-ci:
	bash kernel-setup/setup.sh --ci

# execute every notebook and check its charts (NB=notebooks/03_mrr.ipynb for one)
notebooks:
	bash scripts/check-notebooks.sh $(NB)

# remove outputs before committing a notebook
strip-notebooks:
	/usr/bin/python3 scripts/notebook-lint.py --strip notebooks/*.ipynb

gotest:
	go test ./...
