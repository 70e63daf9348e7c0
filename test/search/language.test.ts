/**
 * The language of a text from its script (src/lib/language.ts): pages and blocks say the language of their text,
 * and a search document with Chinese or Japanese in it is indexed in that language, so Pagefind splits its words.
 */
import { describe, expect, it } from 'vitest';
import { blockLanguage, languageOf } from '../../src/lib/language.ts';

describe('languageOf', () => {
  it('tells Korean, Japanese and Chinese apart by their scripts', () => {
    expect(languageOf('로그인 페이지의 버그를 고쳐 주세요')).toBe('ko');
    expect(languageOf('補完機能を実装してください')).toBe('ja');
    expect(languageOf('请按照黄金标准重写第12篇的章结构')).toBe('zh');
    expect(languageOf('कृपया इस फ़ाइल को ठीक करें')).toBe('hi');
  });

  it('takes Latin text as the default, and the dominant script of mixed text', () => {
    expect(languageOf('Fix the failing test in src/app.ts')).toBe('en');
    expect(languageOf('Corrija o teste, por favor')).toBe('en');
    // A Korean request with an English path in it stays Korean; an English reply quoting a Korean word stays English.
    expect(languageOf('C:\\Users\\Pawan\\project 폴더의 빌드 오류를 수정하고 테스트를 다시 실행해 주세요')).toBe('ko');
    expect(languageOf('The user asked (in Korean, 수정) to fix the build and run the whole test suite again afterwards.')).toBe('en');
    expect(languageOf('1234 --- ===')).toBeUndefined();
  });

  it("gives many texts (a session's requests and replies) one vote each: a pasted file does not outweigh them", () => {
    const pasted = `import React from "react";\n${'export function Chart() { return null; }\n'.repeat(50)}`;
    expect(languageOf([pasted, '모든 글은 한글로 변경하고 테스트해 줘', '구현 계획서를 작성했습니다'])).toBe('ko');
    expect(languageOf(['Fix it', '고쳐 주세요'])).toBe('ko');
    expect(languageOf(['Fix it', 'Run the tests', '고쳐 주세요'])).toBe('en');
  });

  it('gives a block a lang only when it differs from the page', () => {
    expect(blockLanguage('빌드 오류를 수정해 주세요', 'en')).toBe('ko');
    expect(blockLanguage('Fix the build', 'en')).toBeUndefined();
    expect(blockLanguage('빌드 오류', 'ko')).toBeUndefined();
  });
});

