/**
 * Chinese and Japanese in the search index (src/lib/search/cjk.ts, issue 30): every run written as its overlapping
 * pairs and read back exactly as written, and a query asked as the words the index holds, so a compound is found
 * wherever it stands and a word the text does not hold is never matched by a piece of it.
 */
import { describe, expect, it } from 'vitest';
import { indexedText, searchPlan, shownText } from '../../src/lib/search/cjk.ts';
import { excerptParts, excerptText, fragmentWords, pairHits } from '../../src/lib/search/excerpt.ts';

describe('indexedText', () => {
  it('writes each run as its pairs and last character, glued to what stands next to it', () => {
    expect(indexedText('設定ファイル')).toBe('設定 ^定フ ^ファ ^ァイ ^イル ^ル');
    expect(indexedText('Vue.jsの設定を確認')).toBe('Vue.js ^の設 ^設定 ^定を ^を確 ^確認 ^認');
    expect(indexedText('「補完」です。')).toBe('「 ^補完 ^完 ^」 ^です ^す ^。');
    // Korean too: a word with its particle (봉차트를) holds 차트; text without a run is itself.
    expect(indexedText('봉차트를 그려')).toBe('봉차 ^차트 ^트를 ^를 그려 ^려');
    expect(indexedText('npm test')).toBe('npm test');
  });

  it('reads back every text exactly as written, markers and all (whitespace as one space, as Pagefind keeps it)', () => {
    const texts = ['設定ファイル', 'Vue.jsの設定を確認', '「補完」です。', '~/src と ^foo ~~x', '書誌 誌学', 'a 本 b', '𠮷野家の本棚', '手順書・計画書', 'x^設定~y', 'scratch/token_stub.py:12 ok', 'C:\\Users\\DATA ENG', 'f(a, b) "q"'];
    for (const text of texts) expect(shownText(indexedText(text)), text).toBe(text);
  });
});

describe('names joined by punctuation', () => {
  it('splits a path or file:line into the names a person types, glued back when shown', () => {
    expect(indexedText('scratch/token_stub.py:12')).toBe('scratch/ ^token_stub.py: ^12');
    expect(searchPlan('scratch/token_stub.py').first).toBe('"scratch/ token_stub.py"');
  });
});

describe('searchPlan', () => {
  it('asks a run of two characters or more as an exact phrase of its pairs', () => {
    expect(searchPlan('書誌').term).toBe('"書誌"');
    expect(searchPlan('書誌学').term).toBe('"書誌 誌学"');
    expect(searchPlan('本').term).toBe('本');
  });

  it('keeps a quoted query one phrase, with a run followed by words ending where the index ends it', () => {
    expect(searchPlan('"設定 ファイル"').term).toBe('"設定 定 ファ ァイ イル"');
  });

  it('asks each run of a query of several words as a phrase of its own, which every result must hold', () => {
    expect(searchPlan('npm 補完')).toMatchObject({ term: 'npm 補完', phrases: ['"補完"'] });
    expect(searchPlan('設定 Vue.jsの設定')).toMatchObject({ term: '設定 Vue.js の設 設定', phrases: ['"設定"', '"Vue.js の設 設定"'] });
    expect(searchPlan('npm test').phrases).toEqual([]);
    // One word mixing a run with digits is one phrase: 第18篇 is not 第, 18 and 篇 anywhere.
    expect(searchPlan('第18篇').term).toBe('"第 18 篇"');
    expect(searchPlan('방향').term).toBe('"방향"');
  });

  it('ranks the query as typed first when it is several words or an identifier, quoted or not', () => {
    expect(searchPlan('mock-data.js').first).toBe('"mock-data.js"');
    expect(searchPlan('npm run build').first).toBe('"npm run build"');
    expect(searchPlan('src/lib/x.ts')).toMatchObject({ term: 'src/ lib/ x.ts', first: '"src/ lib/ x.ts"' });
    expect(searchPlan('build').first).toBeUndefined();
    expect(searchPlan('"npm run build"').term).toBe('"npm run build"');
    expect(searchPlan('"npm run build"').first).toBeUndefined();
  });
});

describe('excerpts of indexed text', () => {
  it('shows the words as written and marks the whole pair a hit stands for', () => {
    const content = indexedText('読んだ 手順書 と 書誌 の 本棚');
    const { words, joined } = fragmentWords(content);
    const raw = content.split(' ');
    const at = raw.indexOf('書誌');
    const parts = excerptParts(words, pairHits(raw, [{ location: at, balanced_score: 1 }], searchPlan('書誌').bigrams), 0, words.length, 30, joined);
    expect(excerptText(parts)).toBe('読んだ 手順書 と 書誌 の 本棚');
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['書誌']);
  });
});
