// The last lines of `npm test`: which tests failed (or passed only on a retry), in both runners. The unit and browser
// suites run side by side and their logs follow one another, so a failure of the first would otherwise sit far above
// the end of the log, which is the part a CI page shows.
import fs from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const MAX_LISTED = 12;
const print = (line) => process.stdout.write(`${line}\n`);

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function firstLine(text) {
  // Playwright's and Vitest's messages carry ANSI colours.
  return stripVTControlCharacters(String(text ?? '')).split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 200) ?? '';
}

function vitestSummary(report) {
  if (!report) return { line: 'unit: no report (did not run or did not finish)', failed: [] };
  const failed = report.testResults.flatMap((file) => {
    const tests = file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${file.name.replace(process.cwd() + '/', '')} › ${test.fullName} — ${firstLine(test.failureMessages?.[0])}`);
    // A file that failed before its tests ran (an import error, a failing hook) has no failed test of its own.
    return tests.length === 0 && file.status === 'failed' ? [`${file.name.replace(process.cwd() + '/', '')} — ${firstLine(file.message)}`] : tests;
  });
  return { line: `unit: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numTotalTests} in all`, failed };
}

function playwrightSummary(report) {
  if (!report) return { line: 'e2e: no report (did not run or did not finish)', failed: [], flaky: [] };
  const failed = [];
  const flaky = [];
  const walk = (suite, titles) => {
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const name = `${spec.file}:${spec.line} › ${[...titles.slice(1), spec.title].filter(Boolean).join(' › ')}`;
        const error = test.results.flatMap((result) => result.errors ?? []).map((e) => firstLine(e.message))[0] ?? '';
        if (test.status === 'unexpected') failed.push(`${name} — ${error}`);
        else if (test.status === 'flaky') flaky.push(name);
      }
    }
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  const stats = report.stats ?? {};
  return { line: `e2e: ${stats.expected ?? 0} passed, ${stats.unexpected ?? 0} failed, ${stats.flaky ?? 0} flaky, ${stats.skipped ?? 0} did not run`, failed, flaky };
}

const unit = vitestSummary(readJson('test-results/vitest.json'));
const e2e = playwrightSummary(readJson('test-results/e2e.json'));
print('\n── Test summary ──');
print(unit.line);
print(e2e.line);
for (const [label, list] of [['failed (unit)', unit.failed], ['failed (e2e)', e2e.failed], ['flaky (e2e)', e2e.flaky]]) {
  if (list.length === 0) continue;
  print(`${label}:`);
  for (const item of list.slice(0, MAX_LISTED)) print(`  ${item}`);
  if (list.length > MAX_LISTED) print(`  … and ${list.length - MAX_LISTED} more`);
}

// The runners' exit code, given by `npm test`: a run can fail with every test passed — Vitest fails on an error no
// test caught (an 'Unhandled Errors' block in its output), which its JSON report does not carry.
const exitCode = Number(process.argv[2] ?? 0);
const anyListed = unit.failed.length + e2e.failed.length > 0;
if (exitCode !== 0 && !anyListed) {
  print(`the runners exited with code ${exitCode} though no test failed: look above for Vitest's 'Unhandled Errors' or a runner that did not finish`);
}
