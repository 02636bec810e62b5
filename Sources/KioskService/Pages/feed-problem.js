// Why a post's feed entry is incomplete, in the operator's words: the API gives the problem as its
// case and data (`{"case": "metadataMissing", "key": "posts/K7Q2.json"}`), and the page words it.
// No DOM here, so node's test runner checks it (Tests/pages/feed-problem.test.mjs).

/** The operator's words for a feed entry's `problem`. */
export function feedProblem(problem) {
  switch (problem && problem.case) {
    case "metadataMissing": return "metadata missing (" + problem.key + " is not in the store)";
    case "metadataTooLarge": return "metadata damaged: larger than " + Math.round(problem.limit / 1048576) + " MiB";
    case "metadataNotAPost": return "metadata damaged: not a post's JSON document";
    case "metadataNamesAnotherPost": return "metadata damaged: it names post " + problem.id;
    default: return "metadata damaged";
  }
}
