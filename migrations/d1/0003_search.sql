-- Public search (docs/search.md). One row per published instance of a public model, written and
-- removed in the same batch as its published_items row (shared/search/index-statements.ts).
-- Every row carries site_id; every search query joins through this table and filters on it.
--
-- Weights are applied by column choice: the text of a field of weight N (1..10) goes into column wN,
-- and every query ranks with bm25(<index>, 0, 1, 2, …, 10). `title` repeats the title field's text
-- (it is also in its weight column) so suggestions can tell title matches first; its bm25 weight is 0.
CREATE TABLE search_documents (
  id INTEGER PRIMARY KEY,              -- rowid of the three FTS5 indexes (explicit, so VACUUM keeps it)
  site_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  model_id TEXT NOT NULL,
  translation_group_id TEXT NOT NULL,
  lang TEXT NOT NULL,
  version_id TEXT NOT NULL,            -- the published version the text was taken from
  title TEXT NOT NULL DEFAULT '',
  w1 TEXT NOT NULL DEFAULT '',
  w2 TEXT NOT NULL DEFAULT '',
  w3 TEXT NOT NULL DEFAULT '',
  w4 TEXT NOT NULL DEFAULT '',
  w5 TEXT NOT NULL DEFAULT '',
  w6 TEXT NOT NULL DEFAULT '',
  w7 TEXT NOT NULL DEFAULT '',
  w8 TEXT NOT NULL DEFAULT '',
  w9 TEXT NOT NULL DEFAULT '',
  w10 TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX idx_search_documents_instance ON search_documents(site_id, instance_id);
CREATE INDEX idx_search_documents_group ON search_documents(site_id, translation_group_id, lang);
CREATE INDEX idx_search_documents_model ON search_documents(site_id, model_id);

-- The three modes are three tokenizers over the same text (external content: the text is stored once).
-- words: whole words, case and accent folded; prefix indexes serve suggestions.
CREATE VIRTUAL TABLE search_words USING fts5(
  title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10,
  content='search_documents', content_rowid='id',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
-- stems: English word forms (Porter stemmer over unicode61).
CREATE VIRTUAL TABLE search_stems USING fts5(
  title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10,
  content='search_documents', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2'
);
-- parts: any substring of 3 or more characters, case and accent folded.
CREATE VIRTUAL TABLE search_parts USING fts5(
  title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10,
  content='search_documents', content_rowid='id',
  tokenize='trigram remove_diacritics 1'
);

-- Writers only INSERT and DELETE search_documents; these triggers keep the indexes in step.
CREATE TRIGGER search_documents_ai AFTER INSERT ON search_documents BEGIN
  INSERT INTO search_words(rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES (new.id, new.title, new.w1, new.w2, new.w3, new.w4, new.w5, new.w6, new.w7, new.w8, new.w9, new.w10);
  INSERT INTO search_stems(rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES (new.id, new.title, new.w1, new.w2, new.w3, new.w4, new.w5, new.w6, new.w7, new.w8, new.w9, new.w10);
  INSERT INTO search_parts(rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES (new.id, new.title, new.w1, new.w2, new.w3, new.w4, new.w5, new.w6, new.w7, new.w8, new.w9, new.w10);
END;

CREATE TRIGGER search_documents_ad AFTER DELETE ON search_documents BEGIN
  INSERT INTO search_words(search_words, rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES ('delete', old.id, old.title, old.w1, old.w2, old.w3, old.w4, old.w5, old.w6, old.w7, old.w8, old.w9, old.w10);
  INSERT INTO search_stems(search_stems, rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES ('delete', old.id, old.title, old.w1, old.w2, old.w3, old.w4, old.w5, old.w6, old.w7, old.w8, old.w9, old.w10);
  INSERT INTO search_parts(search_parts, rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES ('delete', old.id, old.title, old.w1, old.w2, old.w3, old.w4, old.w5, old.w6, old.w7, old.w8, old.w9, old.w10);
END;

CREATE TRIGGER search_documents_au AFTER UPDATE ON search_documents BEGIN
  INSERT INTO search_words(search_words, rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES ('delete', old.id, old.title, old.w1, old.w2, old.w3, old.w4, old.w5, old.w6, old.w7, old.w8, old.w9, old.w10);
  INSERT INTO search_stems(search_stems, rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES ('delete', old.id, old.title, old.w1, old.w2, old.w3, old.w4, old.w5, old.w6, old.w7, old.w8, old.w9, old.w10);
  INSERT INTO search_parts(search_parts, rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES ('delete', old.id, old.title, old.w1, old.w2, old.w3, old.w4, old.w5, old.w6, old.w7, old.w8, old.w9, old.w10);
  INSERT INTO search_words(rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES (new.id, new.title, new.w1, new.w2, new.w3, new.w4, new.w5, new.w6, new.w7, new.w8, new.w9, new.w10);
  INSERT INTO search_stems(rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES (new.id, new.title, new.w1, new.w2, new.w3, new.w4, new.w5, new.w6, new.w7, new.w8, new.w9, new.w10);
  INSERT INTO search_parts(rowid, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10)
    VALUES (new.id, new.title, new.w1, new.w2, new.w3, new.w4, new.w5, new.w6, new.w7, new.w8, new.w9, new.w10);
END;
