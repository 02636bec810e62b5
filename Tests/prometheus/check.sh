#!/usr/bin/env bash
# The fleet's Prometheus files as shipped (packaging/prometheus/, /usr/share/recorder/prometheus/ in
# the package): Debian's promtool checks the alert rules and the scrape example, runs the rules'
# unit tests (each alert firing and not, the parameters overridden), and the dashboard's JSON is
# read for the fields Grafana needs. About 2 s. The live side (a kiosk's /metrics, a real server
# firing the alerts) is Tests/prometheus/alerts_live.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
shipped=packaging/prometheus
promtool check rules "$shipped/recorder-alerts.yml" Tests/prometheus/short-parameters.yml
# (--syntax-only: the example names the package's paths, which need not exist here)
promtool check config --syntax-only "$shipped/prometheus-scrape.yml"
promtool test rules Tests/prometheus/alerts-test.yml Tests/prometheus/parameters-test.yml
python3 Tests/prometheus/dashboard_check.py "$shipped/recorder-dashboard.json" "$shipped/recorder-alerts.yml" | grep -v '^PASS'
