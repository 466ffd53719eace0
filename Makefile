# The two commands of the README:
#   make lab   – set up GoNB + Jupyter (idempotent) and open the lab notebook
#   make test  – run every test: Go tests, fuzz seeds, trec_eval parity, notebooks, browser checks
.PHONY: lab test setup gotest

lab:
	bash kernel-setup/setup.sh
	bash kernel-setup/open-lab.sh

setup:
	bash kernel-setup/setup.sh

test:
	bash scripts/test-all.sh

gotest:
	go test ./...
