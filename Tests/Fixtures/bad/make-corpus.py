#!/usr/bin/env python3
"""Writes the bad-input corpus (Tests/Fixtures/bad). Run from this folder; the files are
committed, this script only documents how the generated ones (long lines, gzip) were made."""
import gzip, json, os

def w(name, data):
    if isinstance(data, str):
        data = data.encode('utf-8')
    with open(name, 'wb') as f:
        f.write(data)

H = 'timestamp,user,kind,intent,parameters\n'
# --- good inputs other commands need
w('ok/one-event.csv', 'timestamp,user,kind\n2026-03-02T08:00:00Z,ana,News\n')
w('ok/stack.json', '{"instances": [{"id": "news", "kind": "News"}]}\n')

# --- donation logs, CSV
w('csv-truncated-quote.csv', H + '2026-03-02T08:00:00Z,ana,News,,"a=1\n')
w('csv-truncated-row.csv', H + '2026-03-02T08:00:00Z,ana,News,,\n2026-03-02T08:0')
w('csv-bom-bad-month.csv', b'\xef\xbb\xbf' + b'timestamp,user,kind\n2026-13-02T08:00:00Z,ana,News\n')
w('csv-crlf-bad-hour.csv', 'timestamp,user,kind\r\n2026-03-02T08:00:00Z,ana,News\r\n2026-03-02T25:00:00Z,ana,News\r\n')
w('csv-quoted-newline.csv', H + '2026-03-02T08:00:00Z,ana,News,,"a=x\n"\n2026-03-02T08:00:00Z,ana,,,\n')
w('csv-long-line.csv', 'timestamp,user,kind\n2026-03-02T08:00:00Z,ana,' + 'x' * (1 << 20) + '\n')
w('csv-invalid-utf8.csv', b'timestamp,user,kind\n2026-03-02T08:00:00Z,an\xffa,News\n')
w('csv-nul-byte.csv', b'timestamp,user,kind\n2026-03-02T08:00:00Z,an\x00a,News\n')
w('csv-year-1969.csv', 'timestamp,user,kind\n1969-12-31T23:59:59Z,ana,News\n')
w('csv-year-2101.csv', 'timestamp,user,kind\n2101-01-01T00:00:00Z,ana,News\n')
w('csv-empty.csv', '')
w('csv-no-kind-column.csv', 'timestamp,user\n2026-03-02T08:00:00Z,ana\n')
w('csv-field-count.csv', 'timestamp,user,kind\n2026-03-02T08:00:00Z,ana,News,extra\n')
w('csv-offset-out-of-range.csv', 'timestamp,user,kind\n2026-03-02T08:00:00+25:00,ana,News\n')
w('csv-not-leap-day.csv', 'timestamp,user,kind\n2026-02-29T08:00:00Z,ana,News\n')
w('csv-second-61.csv', 'timestamp,user,kind\n2026-03-02T08:00:61Z,ana,News\n')
w('csv-huge-year.csv', 'timestamp,user,kind\n99999999999999999999-03-02T08:00:00Z,ana,News\n')
w('csv-stray-quote.csv', 'timestamp,user,kind\n2026-03-02T08:00:00Z,a"na,News\n')
w('csv-empty-line.csv', 'timestamp,user,kind\n2026-03-02T08:00:00Z,ana,News\n\n2026-03-02T09:00:00Z,ana,News\n')

# --- donation logs, JSON Lines
R = '{"timestamp":"2026-03-02T08:00:00Z","user":"ana","kind":"News"}'
w('jsonl-truncated.jsonl', R + '\n' + R[:-1])
w('jsonl-bom-crlf-bad-day.jsonl', b'\xef\xbb\xbf' + (R + '\r\n{"timestamp":"2026-03-32T08:00:00Z","kind":"News"}\r\n').encode())
w('jsonl-long-line.jsonl', '{"timestamp":"2026-03-02T08:00:00Z","user":"' + 'x' * (1 << 20) + '","kind":"News"}\n')
w('jsonl-invalid-utf8.jsonl', b'{"timestamp":"2026-03-02T08:00:00Z","user":"a\xc3","kind":"News"}\n')
w('jsonl-nul-byte.jsonl', b'{"timestamp":"2026-03-02T08:00:00Z","user":"a\x00","kind":"News"}\n')
w('jsonl-nan.jsonl', '{"timestamp":NaN,"kind":"News"}\n')
w('jsonl-infinite-number.jsonl', '{"timestamp":"2026-03-02T08:00:00Z","kind":"News","parameters":{"n":1e400}}\n')
w('jsonl-duplicate-key.jsonl', '{"timestamp":"2026-03-02T08:00:00Z","kind":"News","kind":"Weather"}\n')
w('jsonl-wrong-type.jsonl', '{"timestamp":"2026-03-02T08:00:00Z","kind":3}\n')
w('jsonl-year-2101.jsonl', '{"timestamp":"2101-06-01T00:00:00Z","kind":"News"}\n')
w('jsonl-not-an-object.jsonl', R + '\n[1,2]\n')
w('jsonl-missing-timestamp.jsonl', '{"user":"ana","kind":"News"}\n')
w('jsonl-single-event.jsonl', R + '\n')

# --- visit logs (replay --visits)
w('visits-bad-timestamp.csv', 'timestamp,user\n2026-03-02T08:00:00Z,ana\n2026-03-02X08:00:00Z,ana\n')
w('visits-empty.csv', '')
w('visits-truncated-quote.csv', 'timestamp,user\r\n2026-03-02T08:00:00Z,"ana\r\n')
w('visits-year-1969.csv', 'timestamp,user\n1969-07-20T20:17:00Z,ana\n')

# --- relevance timelines
def tl(relevance):
    return '{"instances": [{"id": "card", "kind": "RecentPurchases",\n  "entries": [{"date": "2026-01-05T09:00:00Z",\n    "relevance": ' + relevance + '}]}]}\n'
w('timeline-negative-duration.json', tl('{"score": 10, "duration": -60}'))
w('timeline-absurd-duration.json', tl('{"score": 10, "duration": 1e15}'))
w('timeline-nan-score.json', tl('{"score": NaN, "duration": 60}'))
w('timeline-infinite-score.json', tl('{"score": 1e400, "duration": 60}'))
w('timeline-truncated.json', tl('{"score": 10, "duration": 60}')[:-8])
w('timeline-date-1900.json', '{"instances": [{"id": "card", "entries": [{"date": "1900-01-01T00:00:00Z", "relevance": {"score": 1}}]}]}\n')

# --- stacks
w('stack-11-instances.json', '{"instances": [\n' + ',\n'.join('  {"id": "w%d", "kind": "K%d"}' % (i, i) for i in range(11)) + '\n]}\n')
w('stack-duplicate-id.json', '{"instances": [\n  {"id": "a", "kind": "News"},\n  {"id": "a", "kind": "Weather"}\n]}\n')

# --- scenarios (from Datasets/scenarios/tiny.json)
with open('../../../Datasets/scenarios/tiny.json') as f:
    tiny = f.read()
def scen(name, old, new):
    assert old in tiny, old
    w(name, tiny.replace(old, new, 1))
scen('scenario-unknown-timezone.json', '"timezone": "Europe/Berlin"', '"timezone": "Europe/Atlantis"')
scen('scenario-absurd-days.json', '"days": 3', '"days": 100000000')
scen('scenario-start-1969.json', '"start": "2026-03-02"', '"start": "1969-12-01"')
scen('scenario-start-2101.json', '"start": "2026-03-02"', '"start": "2101-01-01"')
scen('scenario-too-many-people.json', '"count": 2', '"count": 2000000')
scen('scenario-nan-probability.json', '"wantProbability": 0.4', '"wantProbability": NaN')
scen('scenario-negative-visits.json', '"visitsPerDay": 40', '"visitsPerDay": -40')
scen('scenario-11-instances.json', '{"id": "cards", "kind": "RecentPurchases", "configuration": {"card": "Acme"}}',
     '{"id": "cards", "kind": "RecentPurchases", "configuration": {"card": "Acme"}},\n' +
     ',\n'.join('      {"id": "x%d", "kind": "X%d"}' % (i, i) for i in range(8)))
scen('scenario-duplicate-instance.json', '{"id": "weather", "kind": "Weather"},\n', '{"id": "weather", "kind": "Weather"},\n      {"id": "weather", "kind": "News"},\n')
w('scenario-truncated.json', tiny[:400])

# --- experiment configs (batch)
def config(strategies, extra=''):
    return ('{\n  "name": "bad",\n  "seed": 1,' + extra + '\n  "sources": [{"name": "one", "log": "ok/one-event.csv"}],\n'
            '  "strategies": ' + strategies + '\n}\n')
w('config-unknown-strategy.json', config('["mfu", "most-magical"]'))
w('config-unknown-parameter.json', config('[{"name": "hour-of-week", "parameters": {"half-life": 3}}]'))
w('config-parameter-out-of-range.json', config('[{"name": "hour-of-week", "parameters": {"half-life-days": -1}}]'))
w('config-huge-replicates.json', config('["mfu"]', '\n  "replicates": 1e300,'))
w('config-missing-log.json', config('["mfu"]').replace('ok/one-event.csv', 'ok/no-such-log.csv'))

# --- LSApp
LH = 'user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n'
w('lsapp-bad-event.tsv', LH + '1\t10\t2018-01-16 06:01:05\tGmail\tOpened\n1\t10\t2018-01-16 06:02:05\tGmail\tExploded\n')
w('lsapp-bad-timestamp.tsv', LH + '1\t10\t2018-01-16 25:01:05\tGmail\tOpened\n')
w('lsapp-truncated.tsv.gz', gzip.compress((LH + '1\t10\t2018-01-16 06:01:05\tGmail\tOpened\n' * 50).encode(), mtime=0)[:-12])
w('lsapp-bomb.tsv.gz', gzip.compress(LH.encode() + b'0' * (4 << 20), mtime=0))

# --- app-events
w('app-events-bad-event-row.csv', 'timestamp,user,app,event\n2026-03-02T08:00:00Z,ana,com.a,opened\n2026-03-02T08:00:00Z,ana\n')
w('app-events-empty.csv', '')
w('app-events-bad-timestamp.csv', 'timestamp,user,app,event\n2026-03-02T08:00:00Q,ana,com.a,opened\n')

# --- added: LSApp long line and NUL byte
w('lsapp-long-line.tsv', LH + '1\t10\t2018-01-16 06:01:05\t' + 'G' * (1 << 20) + '\tOpened\n')
w('lsapp-nul-byte.tsv', (LH + '1\t10\t2018-01-16 06:01:05\tGm\x00ail\tOpened\n').encode())

# --- added for issue 20: CR-only line ends, a naive time its zone moves before 1970,
# escaped NULs, a terminal escape in a header
w('csv-cr-only.csv', 'timestamp,kind,user\r2026-03-02T08:00:00Z,News,ana\r')
w('visits-cr-only.csv', 'timestamp,user\r2026-03-02T08:00:00Z,ana\r')
w('csv-kolkata-1970.csv', 'timestamp,kind\n1970-01-01 00:00:00,News\n')
w('csv-percent-nul.csv', 'timestamp,kind,parameters\n2026-03-02T08:00:00Z,News,a=%00\n')
w('jsonl-escaped-nul.jsonl', '{"timestamp":"2026-03-02T08:00:00Z","kind":"a\\u0000"}\n')
w('csv-escape-header.csv', 'ti\x1b]0;pwned\x07me,kind\n')
