"""The Compare page: several systems on one test set, the verdict (deltas, intervals, corrected p-values,
rank clusters), pairwise views and the HTML report."""
