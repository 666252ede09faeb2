import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { oxlintArgs } from "../../src/engines/oxlint.ts";
import { oxlintInvocations } from "../../src/engines/oxlint-scripts.ts";
import { oxlintReadsOtherFiles } from "../../src/service/lint/oxlint-scope.ts";

/** Issue 33 item 4: oxlint follows the project's lint scripts; which of a script's flags change its findings. */

describe("oxlint invocations in scripts", () => {
  it("reads t3-env's lint script: the config and the directives switch are passed, the rest recorded", () => {
    const [invocation, ...rest] = oxlintInvocations(
      "oxlint -c .config/.oxlintrc.json --type-aware --type-check --deny-warnings --report-unused-disable-directives",
    );
    assert.equal(rest.length, 0);
    assert.deepEqual(invocation, {
      args: ["-c", ".config/.oxlintrc.json", "--report-unused-disable-directives"],
      config: ".config/.oxlintrc.json",
      inputs: [],
      paths: [],
      typeAware: true,
      typeCheck: true,
      failsOnWarnings: true,
      fixes: false,
      unknown: [],
    });
  });

  it("normalizes long and inline spellings, keeps rule switches in order and reads paths", () => {
    const [invocation] = oxlintInvocations(
      "tsc --noEmit && npx oxlint --config=oxlint.json -D correctness --allow=no-debugger -W eqeqeq --import-plugin --tsconfig tsconfig.app.json --ignore-path .lintignore --max-warnings 0 -f stylish src test",
    );
    assert.deepEqual(invocation?.args, [
      "-c",
      "oxlint.json",
      "-D",
      "correctness",
      "-A",
      "no-debugger",
      "-W",
      "eqeqeq",
      "--import-plugin",
      "--tsconfig",
      "tsconfig.app.json",
      "--ignore-path",
      ".lintignore",
    ]);
    assert.deepEqual(invocation?.inputs, ["tsconfig.app.json", ".lintignore"]);
    assert.deepEqual(invocation?.paths, ["src", "test"]);
    assert.equal(invocation?.failsOnWarnings, true);
    assert.equal(invocation?.typeAware, false);
    assert.deepEqual(invocation?.unknown, []);
  });

  it("names flags it does not know, and marks fixing runs", () => {
    assert.deepEqual(oxlintInvocations("oxlint --frobnicate src")[0]?.unknown, ["--frobnicate"]);
    assert.deepEqual(oxlintInvocations("oxlint --frob=1")[0]?.unknown, ["--frob=1"]);
    // --no-ignore also drops the ignore patterns Signalint passes (node_modules, its state directory): not followed.
    assert.deepEqual(oxlintInvocations("oxlint --no-ignore src")[0]?.unknown, ["--no-ignore"]);
    // A valued option without its value is not guessed.
    assert.deepEqual(oxlintInvocations("oxlint -c")[0]?.unknown, ["-c"]);
    assert.equal(oxlintInvocations("oxlint -c .config/.oxlintrc.json --fix && oxfmt")[0]?.fixes, true);
    assert.equal(oxlintInvocations("oxfmt -c .config/.oxfmtrc.json").length, 0);
  });

  it("help, version, rules and the language server lint nothing", () => {
    for (const script of ["oxlint --help", "oxlint -V", "oxlint --rules", "oxlint --lsp", "oxlint --init", "oxlint -c x.json --print-config"])
      assert.deepEqual(oxlintInvocations(script), [], script);
  });

  it("reads a workspace runner before oxlint", () => {
    assert.deepEqual(oxlintInvocations("pnpm -r exec oxlint src")[0]?.packages, { filters: [] });
  });

  it("the script's flags come before Signalint's own argv", () => {
    assert.deepEqual(oxlintArgs(["src"], "1.94.0", false, ["-c", "x.json"]), [
      "-c",
      "x.json",
      "--format",
      "json",
      "--no-error-on-unmatched-pattern",
      "--ignore-pattern",
      "**/node_modules/**",
      "--",
      "src",
    ]);
  });

  it("flags that make oxlint read other files than the one it reports on are never cached per file", () => {
    const reads = (script: string) => {
      const invocation = oxlintInvocations(script)[0];
      assert.ok(invocation);
      return oxlintReadsOtherFiles({ args: invocation.args, inputs: [], typeAware: false });
    };
    assert.equal(reads("oxlint --import-plugin src"), true);
    assert.equal(reads("oxlint -D import/namespace src"), true);
    assert.equal(reads("oxlint -c oxlint.config.ts src"), true);
    assert.equal(reads("oxlint -c .config/.oxlintrc.json -A no-var src"), false);
  });
});
