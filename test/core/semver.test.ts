import assert from "node:assert/strict";
import { it } from "node:test";
import { compareVersions } from "../../src/core/semver.ts";

it("versions order semver-wise: numbers by value, a release after its pre-releases, build metadata ignored", () => {
  const ordered = ["0.0.1", "0.1.0-alpha", "0.1.0-alpha.2", "0.1.0-alpha.10", "0.1.0-beta", "0.1.0", "0.2.0", "0.10.0", "1.0.0", "10.0.0"];
  for (let i = 0; i < ordered.length; i++) {
    for (let j = 0; j < ordered.length; j++) {
      assert.equal(compareVersions(ordered[i] as string, ordered[j] as string), Math.sign(i - j), `${ordered[i]} vs ${ordered[j]}`);
    }
  }
  assert.equal(compareVersions("1.2.3+build.5", "1.2.3"), 0);
  assert.equal(compareVersions("v1.2.3", "1.2.3"), 0);
});
