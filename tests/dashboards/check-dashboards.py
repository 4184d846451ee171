#!/usr/bin/env python3
"""Proves Ballot's Grafana dashboards against a real Prometheus that scrapes a real cluster.

For every dashboard in docker/grafana/dashboards: each template variable's label_values() query and each panel's
PromQL expression is evaluated through Prometheus's HTTP API, with the variables set as Grafana sets them ($cluster to
the cluster's label, $node and $keyspace to "All", $__rate_interval to a window of several scrapes). Each must parse
and return at least one series, and each metric it names must be one Prometheus has scraped: a panel that names a
metric the nodes do not export fails. Prints one line per dashboard and a summary; exits 1 on any failure.

    check-dashboards.py --prometheus http://127.0.0.1:19090 --cluster ballot-test [--dashboards DIR]
"""
import argparse
import glob
import json
import os
import re
import sys
import urllib.parse
import urllib.request

# A metric name right before its selector or range: name{...} or name[...]. Every panel selects by cluster and node.
METRIC = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{\[]')
LABEL_VALUES = re.compile(r'^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$')
RATE_INTERVAL = '15s'


def api(base, path, **params):
    url = base.rstrip('/') + path + ('?' + urllib.parse.urlencode(params) if params else '')
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as e:  # Prometheus answers a bad query with 400 and a JSON body naming the error
        return json.load(e)


def substitute(expr, values):
    for name, value in values.items():
        expr = expr.replace('${' + name + '}', value).replace('$' + name, value)
    return expr


def panels(board):
    for panel in board.get('panels', []):
        yield panel
        yield from panel.get('panels', [])  # a collapsed row keeps its panels inside it


def check_board(path, base, values, scraped):
    board = json.load(open(path))
    problems, evaluated = [], 0
    ids = [p['id'] for p in panels(board)]
    if len(ids) != len(set(ids)):
        problems.append('panel ids are not unique')
    variables = {v['name']: v for v in board.get('templating', {}).get('list', [])}
    for needed in ('datasource', 'cluster', 'node'):
        if needed not in variables:
            problems.append(f'no ${needed} template variable')

    def evaluate(what, expr):
        nonlocal evaluated
        evaluated += 1
        for name in METRIC.findall(expr):
            if name not in scraped and name not in ('by', 'without', 'on', 'ignoring'):
                problems.append(f'{what}: metric {name} is not exported by any node')
        answer = api(base, '/api/v1/query', query=substitute(expr, values))
        if answer.get('status') != 'success':
            problems.append(f'{what}: {answer.get("errorType")}: {answer.get("error")} in {expr}')
        elif not answer['data']['result']:
            problems.append(f'{what}: no series for {substitute(expr, values)}')

    for name, variable in variables.items():
        if variable.get('type') != 'query':
            continue
        query = variable['query']['query'] if isinstance(variable['query'], dict) else variable['query']
        match = LABEL_VALUES.match(query)
        if not match:
            problems.append(f'variable ${name}: not a label_values(metric, label) query: {query}')
            continue
        evaluate(f'variable ${name}', f'count by ({match.group(2)}) ({match.group(1)})')
    for panel in panels(board):
        if panel.get('type') == 'row':
            continue
        if panel.get('datasource', {}).get('uid') != '${datasource}':
            problems.append(f'panel "{panel["title"]}": its data source is not $datasource')
        if not panel.get('targets'):
            problems.append(f'panel "{panel["title"]}": no query')
        for target in panel.get('targets', []):
            expr = target.get('expr', '')
            if '$cluster' not in expr or '$node' not in expr:
                problems.append(f'panel "{panel["title"]}" {target["refId"]}: does not select by $cluster and $node')
            evaluate(f'panel "{panel["title"]}" {target["refId"]}', expr)
    return board['title'], evaluated, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--prometheus', required=True)
    parser.add_argument('--cluster', required=True, help='the cluster label Prometheus gives the nodes')
    parser.add_argument('--dashboards', default=os.path.join(os.path.dirname(__file__), '..', '..', 'docker', 'grafana', 'dashboards'))
    args = parser.parse_args()
    scraped = set(api(args.prometheus, '/api/v1/label/__name__/values')['data'])
    values = {'cluster': args.cluster, 'node': '.*', 'keyspace': '.*', '__rate_interval': RATE_INTERVAL,
              'datasource': 'prometheus'}
    files = sorted(glob.glob(os.path.join(args.dashboards, '*.json')))
    if not files:
        print(f'dashboards: none found in {args.dashboards}')
        return 1
    failed = total = 0
    uids = set()
    for path in files:
        title, evaluated, problems = check_board(path, args.prometheus, values, scraped)
        uid = json.load(open(path)).get('uid')
        if uid in uids:
            problems.append(f'uid {uid} is used by another dashboard')
        uids.add(uid)
        total += evaluated
        print(f'dashboards: {os.path.basename(path)} ({title}): {evaluated} queries, ' + ('ok' if not problems else f'{len(problems)} FAILED'))
        for problem in problems:
            print(f'  - {problem}')
        failed += len(problems)
    print(f'dashboards: {len(files)} dashboards, {total} queries evaluated, {failed} failures')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
