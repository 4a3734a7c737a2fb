// Whether a document needs a person's eyes, said the same on the batch page and the document:
// how many of its fields are below the review threshold and which checks failed, or that it was
// reviewed, or read surely.
import { html } from './html.js';
import { REVIEW_BELOW, needsText, reviewNeeds, reviewStateOf } from './review.js';

const words = (names) => names.join(', ').replace(/_/g, ' ');

export function ReviewState({ doc }) {
  const state = reviewStateOf(doc);
  if (!state) return null;
  if (state !== 'needs') {
    return html`<span class="help" data-test="review-state" data-state=${state}>${state === 'reviewed' ? '✓ reviewed' : 'read surely'}</span>`;
  }
  const needs = reviewNeeds(doc);
  const why = [needs.fields.length && `below ${REVIEW_BELOW * 100} % confidence: ${words(needs.fields)}`, needs.checks.length && `checks failed: ${words(needs.checks)}`].filter(Boolean).join('; ');
  return html`<span class="badge needs" data-test="review-state" data-state="needs" data-count=${needs.fields.length} data-checks=${needs.checks.length} title=${why}>
    needs review: ${needsText(needs)}<span class="sr-only"> (${why})</span></span>`;
}
