# The two commands of the README:
#   make lab   – set up GoNB + Jupyter (idempotent) and open the lab notebook; Ctrl-C stops it all
#   make test  – set up what the checks need (the same idempotent set-up plus Chromium, fonts,
#                playwright-core, the peers), then run every test: gofmt, go vet, Go tests (fuzz
#                seeds, trec_eval parity, peers), then every scripts/check-*.sh (Ctrl-C of make lab,
#                notebooks executed, charts drawn in Chromium, ...)
.PHONY: lab test setup setup-ci notebooks strip-notebooks pip-freeze gotest

lab:
	bash kernel-setup/setup.sh
	bash kernel-setup/open-lab.sh

test:
	bash scripts/test-all.sh

# set-up only (setup-ci adds what the checks need; `make test` runs it itself, so no README path needs it)
setup:
	bash kernel-setup/setup.sh
setup-ci:
	bash kernel-setup/setup.sh --ci

# execute every notebook and check its charts (NB=notebooks/03_mrr.ipynb for one)
notebooks:
	bash scripts/check-notebooks.sh $(NB)

# remove outputs before committing a notebook
strip-notebooks:
	python3 scripts/notebook-lint.py --strip notebooks/*.ipynb

# re-pin kernel-setup/constraints.txt from the environment setup.sh installed
pip-freeze:
	{ sed -n 1,2p kernel-setup/constraints.txt; $${RANKLAB_VENV:-$$HOME/.local/share/ranklab/jupyter-venv}/bin/pip freeze; } > kernel-setup/constraints.tmp && mv kernel-setup/constraints.tmp kernel-setup/constraints.txt

gotest:
	go test ./...
