/** Label selector text of list/watch queries, parsed as kube-apiserver does (src/api has the selector semantics). */
import { LabelSelectorSyntaxError, parseLabelSelectorText, type LabelRequirement } from '../../api/index.js';
import { badRequest } from '../status.js';

/** Parses label selector text; empty selects everything. A bad selector is a 400 with kube-apiserver's message. */
export function parseLabelSelector(text: string | null): LabelRequirement[] {
  try {
    return parseLabelSelectorText(text);
  } catch (e) {
    if (e instanceof LabelSelectorSyntaxError) throw badRequest(e.message);
    throw e;
  }
}
