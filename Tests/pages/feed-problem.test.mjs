// The operator's words for a damaged feed entry (Sources/KioskService/Pages/feed-problem.js), with
// node's own test runner: node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { feedProblem } from "../../Sources/KioskService/Pages/feed-problem.js";

test("each case the API gives is worded with its data", () => {
  assert.equal(feedProblem({ case: "metadataMissing", key: "posts/K7Q2.json" }), "metadata missing (posts/K7Q2.json is not in the store)");
  assert.equal(feedProblem({ case: "metadataTooLarge", limit: 1048576 }), "metadata damaged: larger than 1 MiB");
  assert.equal(feedProblem({ case: "metadataNotAPost" }), "metadata damaged: not a post's JSON document");
  assert.equal(feedProblem({ case: "metadataNamesAnotherPost", id: "OTHER" }), "metadata damaged: it names post OTHER");
});

test("a case this page does not know yet still says the post is damaged", () => {
  assert.equal(feedProblem({ case: "somethingNew" }), "metadata damaged");
  assert.equal(feedProblem("a sentence from an older kiosk"), "metadata damaged");
});
