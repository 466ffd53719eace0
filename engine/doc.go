// Package engine runs ranklab's retrieval on a search engine: a SolrCloud cluster (the tested
// default) or an OpenSearch cluster, local or the one a team serves. The in-process retrievers
// of package retrieval stay the default; this package is for the index that outgrows one
// process and for evaluating what a team actually serves.
//
// The simplest use, a local SolrCloud and SciFact's BM25 run:
//
//	cl, err := engine.Start(ctx, engine.Options{})          // Solr 9.10.1, 1 node, from Maven Central
//	defer cl.Stop()
//	c, err := engine.Connect(ctx, cl.URL)                   // the kind is found from the server's answer
//	ix, err := c.CreateIndex(ctx, "scifact", coll.Docs, engine.IndexOptions{})
//	runs, err := ix.Run(ctx, coll.Queries, engine.RunOptions{Tag: "bm25"})
//
// and a team's own index with its own request (Client.Query, Template):
//
//	run, err := c.Query(ctx, queries, engine.Template{Index: "products",
//		Body: `{"query": "{{query}}", "params": {"defType": "edismax", "qf": "title^2 body"}}`})
//
// Decisions made once:
//
//   - BM25 is Lucene's with Anserini's k1 0.9 and b 0.4 over one field (the document's Content,
//     title and text) analyzed by Lucene's EnglishAnalyzer; a query is an OR of its analyzed
//     words. On SciFact both engines give Anserini's nDCG@10 0.6789 and R@100 0.9253. ranklab's
//     in-process BM25 uses bleve's English analyzer, so its figures differ slightly (Cranfield).
//   - A query is text, never syntax: every character of the engine's query syntax in it is
//     escaped (Solr), or it goes in a JSON string of a match query (OpenSearch).
//   - Statistics: with several shards each shard scores with its own document frequencies unless
//     IndexOptions.ExactStats (Solr's ExactStatsCache, OpenSearch's dfs_query_then_fetch), which
//     gives one shard's scores exactly.
//   - Vectors are ranklab's own (dense.Build through embed), searched by the engine's
//     HNSW (Lucene's, cosine); its scores are turned back into the cosine.
//   - Credentials come from the environment only (RANKLAB_ENGINE_USER and
//     RANKLAB_ENGINE_PASSWORD, or RANKLAB_ENGINE_API_KEY; RANKLAB_ENGINE_CA for a private CA), and
//     never appear in an error, a log or a stamp. A 429, 502, 503 or 504 is retried (4 times,
//     back-off from 0.25 s); every other failure is an error naming the URL, and a run is
//     returned only when every query was answered.
package engine
