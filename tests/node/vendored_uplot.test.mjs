// The playground's uPlot files are vendored in third_party/uplot (building the server needs
// no npm): they must be byte for byte the files of the npm package the lockfile pins. The
// package's tarball is fetched from the registry (or npm's cache, which `make node-deps`
// filled) with `npm pack`, checked against the lockfile's integrity, and unpacked.
//
// Run: node --test tests/node/   (make mcp-test; needs no server)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO } from './server.mjs';

const VENDORED = join(REPO, 'third_party', 'uplot');
// vendored name -> path in the package
const FILES = {
  'uPlot.iife.min.js': 'dist/uPlot.iife.min.js',
  'uPlot.min.css': 'dist/uPlot.min.css',
  LICENSE: 'LICENSE',
};

test('third_party/uplot holds the registry copy of the uplot version package.json pins', () => {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8'));
  const version = manifest.dependencies.uplot;
  assert.match(version, /^\d+\.\d+\.\d+$/, 'package.json pins uplot to one exact version');
  const locked = lock.packages['node_modules/uplot'];
  assert.equal(locked.version, version, 'package-lock.json locks the version package.json pins');

  const dir = mkdtempSync(join(tmpdir(), 'toolcalc-uplot-'));
  try {
    const packed = JSON.parse(execFileSync('npm', ['pack', `uplot@${version}`, '--json',
      '--prefer-offline', '--pack-destination', dir], { cwd: dir, encoding: 'utf8' }));
    const tarball = join(dir, packed[0].filename);
    const [algorithm, digest] = locked.integrity.split('-');
    assert.equal(createHash(algorithm).update(readFileSync(tarball)).digest('base64'), digest,
      'the tarball npm fetched has the integrity package-lock.json records');

    execFileSync('tar', ['-xzf', tarball, '-C', dir]);
    for (const [name, inPackage] of Object.entries(FILES)) {
      const ours = readFileSync(join(VENDORED, name));
      const theirs = readFileSync(join(dir, 'package', inPackage));
      assert.ok(ours.equals(theirs),
        `third_party/uplot/${name} differs from ${inPackage} of uplot@${version}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
