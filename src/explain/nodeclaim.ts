/**
 * Explains a NodeClaim: its lifecycle step, what that step waits for and since when, what comes next and when the
 * launch or registration timeout acts; a node that registered without the registration taint is traced to the
 * EC2NodeClass userData finding that explains it (S2, S3).
 */
import { ConditionTypes, Labels, UnregisteredTaint } from '../api/index.js';
import type { Node } from '../kube/index.js';
import type { StoredNodeClaim } from '../state/informers.js';
import type { ExplainContext } from './context.js';
import type { Explanation } from './model.js';
import { healthFinding } from './node-health.js';
import { stepOf, type Step } from './nodeclaim-step.js';
import { timeOf } from './snapshot.js';
import { duration } from './units.js';
import { drainablePods } from '../controllers/node/termination/drain-order.js';
import { drainDeadline, instanceTerminationTime } from '../controllers/node/termination/replacement-wait.js';

/** The lifecycle timeouts (Karpenter's defaults; `tenon controller` reads LAUNCH_TIMEOUT and REGISTRATION_TIMEOUT). */
export interface LifecycleTimeouts {
  launchMs: number;
  registrationMs: number;
}

const defaultTimeouts: LifecycleTimeouts = { launchMs: 5 * 60_000, registrationMs: 15 * 60_000 };

const next: Record<Step['name'], string> = {
  Launching: 'the instance is launched, then its kubelet registers a Node',
  Registering: 'a Node with its providerID registers; Tenon then applies the NodePool labels and taints',
  Initializing: 'the Node is Ready, startup taints are removed and extended resources registered; then pods bind',
  Ready: 'nothing: it runs pods until it is disrupted',
  Deleting: 'the node is drained and the instance terminated',
};

/** What comes after the step; an interrupted NodeClaim's drain first waits for its pods' replacement. */
function nextLine(ctx: ExplainContext, nc: StoredNodeClaim, step: Step, node: Node | undefined): string {
  const endsAt = step.name === 'Deleting' ? instanceTerminationTime(nc) : undefined;
  if (endsAt === undefined) return `next: ${next[step.name]}`;
  const pods = drainablePods(ctx.index.podsByNode.get(node?.metadata.name ?? '') ?? [], ctx.now);
  const by = drainDeadline(endsAt, pods);
  const when = by > ctx.now ? `in ${duration(by - ctx.now)} at the latest` : 'now';
  return `next: interrupted, its instance goes in ${duration(Math.max(0, endsAt - ctx.now))}: the pods keep running until capacity for them is initialized (or a launch fails), the drain starts ${when} so they get their termination grace; then the instance is terminated`;
}

function eventsAbout(ctx: ExplainContext, names: readonly string[], reason: string): string[] {
  return ctx.snapshot.events
    .filter((e) => e.reason === reason && names.includes(e.involvedObject?.name ?? ''))
    .map((e) => e.message ?? '');
}

function userDataFinding(ctx: ExplainContext, nc: StoredNodeClaim): string | undefined {
  const cls = ctx.snapshot.nodeClasses.find((c) => c.metadata.name === nc.spec.nodeClassRef.name);
  const c = cls?.status?.conditions?.find((x) => x.type === ConditionTypes.userDataValid && x.status !== 'True');
  return c?.message;
}

/** The EC2NodeClass's first userData lint error, shortened, with the lint's own fix. */
interface LintNote {
  text: string;
  fix: string | undefined;
}

function lintNote(ctx: ExplainContext, nc: StoredNodeClaim): LintNote | undefined {
  const message = userDataFinding(ctx, nc);
  if (!message) return undefined;
  // The condition joins findings as "severity CODE: message (fix: fix)" with "; ".
  const first = message.split(/; (?=(?:error|warning) [A-Z0-9_]+: )/)[0] ?? message;
  const fix = /\(fix: (.*)\)$/.exec(first)?.[1];
  const body = first.replace(/ \(fix: .*\)$/, '');
  const option = /BOOTSTRAP_UNRECOGNISED_OPTION: bootstrap\.sh does not recognise "(--[\w-]+)=/.exec(body)?.[1];
  return { text: option ? `the bootstrap option \`${option}=…\` was ignored (one-word form)` : body, fix };
}

function taintLine(ctx: ExplainContext, nc: StoredNodeClaim, nodeName: string | undefined): string | undefined {
  const missing = eventsAbout(ctx, [nc.metadata.name ?? '', nodeName ?? ''], 'UnregisteredTaintMissing')[0];
  if (!missing) return undefined;
  const lint = lintNote(ctx, nc);
  return `the kubelet registered without ${UnregisteredTaint.key}${lint ? `; ${lint.text}` : ''} — see \`tenon lint\``;
}

const userDataFix =
  'fix the userData of the EC2NodeClass (kubelet flags, the bootstrap line) so the kubelet registers with karpenter.sh/unregistered:NoExecute, or use NodePool startupTaints/taints instead';

/** The fix for what an Initializing NodeClaim waits on, by the condition's reason. */
const initFixes: Record<string, (message: string) => string> = {
  KnownEphemeralTaintsExist: (message) => {
    const owner = /expected to be removed by ([^;]+)/.exec(message)?.[1] ?? 'the agent that owns it';
    const taint = /taint (\S+) is still present/.exec(message)?.[1] ?? 'the taint';
    return `check that ${owner} runs and reaches the node: it removes ${taint}`;
  },
  StartupTaintsExist: () =>
    "whatever prepares the node must remove the startup taint; or drop it from the NodePool's startupTaints",
  NodeNotReady: () => 'check the kubelet and the CNI on the node (kubectl describe node)',
  ResourceNotRegistered: () => 'check the device plugin that registers the resource',
};

function registeringAdvice(ctx: ExplainContext, nc: StoredNodeClaim): { detail?: string; fix?: string } {
  const lint = lintNote(ctx, nc);
  if (!lint) return {};
  return {
    detail: `EC2NodeClass \`${nc.spec.nodeClassRef.name}\` userData: ${lint.text}, so the kubelet may register without ${UnregisteredTaint.key} — see \`tenon lint\``,
    fix: lint.fix ?? userDataFix,
  };
}

/** What a waiting NodeClaim's step needs from the user, if anything: a detail line and a fix. */
export function waitAdvice(ctx: ExplainContext, nc: StoredNodeClaim): { detail?: string; fix?: string } {
  const step = stepOf(nc);
  if (step.name === 'Registering') return registeringAdvice(ctx, nc);
  const w = step.waitingOn;
  const fix = w?.reason ? initFixes[w.reason]?.(w.message ?? '') : undefined;
  return fix ? { fix } : {};
}

function timeout(step: Step, nc: StoredNodeClaim, t: LifecycleTimeouts, now: number): string | undefined {
  if (step.name === 'Launching') {
    const at = (timeOf(nc.metadata.creationTimestamp) ?? now) + t.launchMs;
    return `the launch timeout (${duration(t.launchMs)}) deletes it in ${duration(at - now)} if it has not launched`;
  }
  if (step.name === 'Registering') {
    const at = (step.since ?? now) + t.registrationMs;
    return `the registration timeout (${duration(t.registrationMs)}) deletes it in ${duration(at - now)} if no Node registers`;
  }
  return undefined;
}

function stepSummary(step: Step, now: number): string {
  const since = step.since !== undefined ? ` for ${duration(now - step.since)}` : '';
  const w = step.waitingOn;
  if (!w) return `${step.name}${since}`;
  const what = w.message ? `: ${w.message}` : w.reason ? ` (${w.reason})` : '';
  return `${step.name}${since}, waiting on ${w.type}${what}`;
}

function causeOf(
  nc: StoredNodeClaim,
  step: Step,
  text: { summary: string; taint: string | undefined; now: number },
): Explanation['cause'] {
  const name = nc.metadata.name ?? '';
  if (step.waitingOn) {
    const numbers = {
      step: step.name,
      for: step.since !== undefined ? duration(text.now - step.since) : 'unknown',
      reason: step.waitingOn.reason ?? '',
    };
    return { constraint: step.waitingOn.type, object: `NodeClaim/${name}`, numbers, message: text.summary };
  }
  return text.taint
    ? {
        constraint: 'registration-taint',
        object: `EC2NodeClass/${nc.spec.nodeClassRef.name}`,
        numbers: {},
        message: text.taint,
      }
    : undefined;
}

function whereLine(nc: StoredNodeClaim, node: string | undefined): string {
  const pool = nc.metadata.labels?.[Labels.nodePool] ?? '';
  return `NodePool \`${pool}\`, instance type ${nc.metadata.labels?.[Labels.instanceType] ?? '(not launched)'}${node ? `, node \`${node}\`` : ''}`;
}

/** An unhealthy node: its repair (when, or what holds it back) is the NodeClaim's story now. */
function repairOf(
  ctx: ExplainContext,
  o: { name: string; node: Node | undefined; summary: string; details: string[] },
): Explanation | undefined {
  const health = o.node ? healthFinding(ctx, o.node) : undefined;
  if (!health) return undefined;
  return {
    kind: 'nodeclaim',
    name: o.name,
    state: health.state,
    summary: health.cause.message,
    cause: health.cause,
    fix: health.fix,
    details: [`step ${o.summary}`, ...o.details],
    explained: true,
  };
}

/** Explains NodeClaim `name`; undefined when there is none. */
export function explainNodeClaim(
  ctx: ExplainContext,
  name: string,
  timeouts: LifecycleTimeouts = defaultTimeouts,
): Explanation | undefined {
  const nc = ctx.snapshot.nodeClaims.find((c) => c.metadata.name === name);
  if (!nc) return undefined;
  const step = stepOf(nc);
  const node = ctx.index.nodeOf(nc);
  const summary = stepSummary(step, ctx.now);
  const taint = taintLine(ctx, nc, node?.metadata.name);
  const advice = waitAdvice(ctx, nc);
  const t = timeout(step, nc, timeouts, ctx.now);
  const details = [
    // Without a wait the taint line is the summary's; with one, it is a detail.
    ...(taint && step.waitingOn ? [taint] : []),
    ...[advice.detail, nextLine(ctx, nc, step, node), t].filter((x): x is string => x !== undefined),
    whereLine(nc, node?.metadata.name),
  ];
  const repair = repairOf(ctx, { name, node, summary, details });
  if (repair) return repair;
  const cause = causeOf(nc, step, { summary, taint, now: ctx.now });
  const fix = taint ? (lintNote(ctx, nc)?.fix ?? userDataFix) : advice.fix;
  return {
    kind: 'nodeclaim',
    name,
    state: step.name,
    summary: taint && !step.waitingOn ? `${summary}; ${taint}` : summary,
    details,
    explained: true,
    ...(cause ? { cause } : {}),
    ...(fix ? { fix } : {}),
  };
}
