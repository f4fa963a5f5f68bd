import { al2View } from './al2-view.js';
import { al2023View } from './al2023-view.js';
import { bottlerocketView, parseToml } from './bottlerocket.js';
import { eksDefaults, fail, toEffective, type KubeletState } from './kubelet-state.js';
import { looksLikeMime, parseMime } from './mime.js';
import { isNodeConfigPart, parseAl2023Parts } from './nodeconfig.js';
import type { AmiFamily, EffectiveKubeletConfig, NodeFacts } from './types.js';
import { windowsView } from './windows.js';

/** The bootstrap mechanism a userData text uses (how a Custom AMI's userData is read). */
export type BootstrapKind = 'bootstrap.sh' | 'nodeadm' | 'bottlerocket' | 'windows';

/** Guesses which mechanism a Custom AMI's userData drives. */
export function detectKind(userData: string): BootstrapKind {
  if (/<powershell>/i.test(userData)) return 'windows';
  if (looksLikeMime(userData)) return parseMime(userData).parts.some(isNodeConfigPart) ? 'nodeadm' : 'bootstrap.sh';
  if (/^\s*\[settings[.\]]/m.test(userData) && parseToml(userData).ok) return 'bottlerocket';
  if (/^\s*kind:\s*NodeConfig\s*$/m.test(userData)) return 'nodeadm';
  return 'bootstrap.sh';
}

/** The mechanism an AMI family uses (Custom: read from the userData itself). */
export function kindOf(family: AmiFamily, userData: string): BootstrapKind {
  switch (family) {
    case 'AL2':
      return 'bootstrap.sh';
    case 'AL2023':
      return 'nodeadm';
    case 'Bottlerocket':
      return 'bottlerocket';
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return 'windows';
    default:
      return detectKind(userData);
  }
}

function view(userData: string, family: AmiFamily, facts: NodeFacts): KubeletState {
  const kind = kindOf(family, userData);
  if (kind === 'bottlerocket') return bottlerocketView(userData, facts);
  if (kind === 'windows') return windowsView(userData, facts);
  const archive = kind === 'nodeadm' ? parseAl2023Parts(userData) : parseMime(userData);
  const state = kind === 'nodeadm' ? al2023View(archive.parts, facts) : al2View(archive.parts, facts);
  if (archive.problems.length > 0) {
    // cloud-init gives up on an archive it cannot split, so none of its parts run.
    fail(state, `malformed MIME userData: ${archive.problems.join('; ')}`);
  }
  return state;
}

/**
 * What the kubelet will actually run with, given the final userData of an instance: registration taints and
 * labels, max pods, reservations, eviction thresholds and cluster DNS, after the real precedence rules
 * (flags beat the config file, the last of repeated flags wins, nodeadm merges documents in order, bootstrap.sh
 * parses its arguments like its shell loop). `problems` says what the boot would complain about and `joins`
 * whether the kubelet gets to register at all. Never throws.
 */
export function effectiveKubeletConfig(
  userData: string,
  family: AmiFamily,
  facts: NodeFacts = {},
): EffectiveKubeletConfig {
  try {
    return toEffective(view(userData, family, facts));
  } catch (e: unknown) {
    const state = eksDefaults(facts);
    fail(state, `userData could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return toEffective(state);
  }
}
