/**
 * The EventBridge events an interruption queue receives, parsed into what the interruption controller acts on.
 * The kinds are Karpenter's (`message_type` label values): EC2 spot interruption warnings, rebalance
 * recommendations, instance state changes and AWS Health scheduled changes; anything else is `no_op`.
 */

/** Karpenter's message kinds, as they appear in `karpenter_interruption_received_messages_total{message_type}`. */
export const MessageKinds = {
  rebalanceRecommendation: 'rebalance_recommendation',
  scheduledChange: 'scheduled_change',
  spotInterruption: 'spot_interrupted',
  instanceStopped: 'instance_stopped',
  instanceTerminated: 'instance_terminated',
  noOp: 'no_op',
} as const;
/** One of MessageKinds. */
export type MessageKind = (typeof MessageKinds)[keyof typeof MessageKinds];

/** A parsed message: its kind, the instances it is about, and when the event happened (ms since the epoch). */
export interface InterruptionMessage {
  kind: MessageKind;
  instanceIds: string[];
  /** The event's `time`; undefined when it carries none. */
  time?: number;
  /** The instance state, for state-change notifications. */
  state?: string;
  /** When a scheduled change begins (AWS Health's `startTime`), ms since the epoch. */
  startTime?: number;
}

/** The outcome of parsing a body: a message, or why it is not one (the controller logs it and deletes it). */
export type ParseResult = { ok: true; message: InterruptionMessage } | { ok: false; reason: string };

/** The detail types EC2 and AWS Health publish (EventBridge `detail-type`). */
export const DetailTypes = {
  spotInterruption: 'EC2 Spot Instance Interruption Warning',
  rebalanceRecommendation: 'EC2 Instance Rebalance Recommendation',
  stateChange: 'EC2 Instance State-change Notification',
  health: 'AWS Health Event',
} as const;

/** States whose notification means the instance is going away; other states are `no_op`. */
const stoppedStates: ReadonlySet<string> = new Set(['stopping', 'stopped']);
const terminatedStates: ReadonlySet<string> = new Set(['shutting-down', 'terminated']);

interface EventEnvelope {
  version?: unknown;
  source?: unknown;
  'detail-type'?: unknown;
  time?: unknown;
  detail?: unknown;
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function instanceIdOfDetail(detail: Record<string, unknown>): string[] {
  const id = str(detail['instance-id']);
  return id ? [id] : [];
}

function healthMessage(detail: Record<string, unknown>): InterruptionMessage {
  // Only EC2's scheduled changes (retirements, reboots for maintenance) concern instances.
  if (detail.service !== 'EC2' || detail.eventTypeCategory !== 'scheduledChange')
    return { kind: MessageKinds.noOp, instanceIds: [] };
  const entities = Array.isArray(detail.affectedEntities) ? detail.affectedEntities : [];
  const instanceIds = entities.map((e) => str(record(e).entityValue)).filter((id): id is string => id !== undefined);
  const startTime = Date.parse(str(detail.startTime) ?? '');
  return Number.isFinite(startTime)
    ? { kind: MessageKinds.scheduledChange, instanceIds, startTime }
    : { kind: MessageKinds.scheduledChange, instanceIds };
}

function stateChangeMessage(detail: Record<string, unknown>): InterruptionMessage {
  const state = str(detail.state) ?? '';
  const kind = stoppedStates.has(state)
    ? MessageKinds.instanceStopped
    : terminatedStates.has(state)
      ? MessageKinds.instanceTerminated
      : MessageKinds.noOp;
  return { kind, instanceIds: kind === MessageKinds.noOp ? [] : instanceIdOfDetail(detail), state };
}

function messageOf(source: string, detailType: string, detail: Record<string, unknown>): InterruptionMessage {
  if (source === 'aws.health' && detailType === DetailTypes.health) return healthMessage(detail);
  if (source !== 'aws.ec2') return { kind: MessageKinds.noOp, instanceIds: [] };
  switch (detailType) {
    case DetailTypes.spotInterruption:
      return { kind: MessageKinds.spotInterruption, instanceIds: instanceIdOfDetail(detail) };
    case DetailTypes.rebalanceRecommendation:
      return { kind: MessageKinds.rebalanceRecommendation, instanceIds: instanceIdOfDetail(detail) };
    case DetailTypes.stateChange:
      return stateChangeMessage(detail);
    default:
      return { kind: MessageKinds.noOp, instanceIds: [] };
  }
}

/** Parses one queue message body (an EventBridge event in JSON). */
export function parseMessage(body: string): ParseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e: unknown) {
    return { ok: false, reason: `the body is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const event = record(parsed) as EventEnvelope;
  const source = str(event.source);
  const detailType = str(event['detail-type']);
  if (!source || !detailType)
    return { ok: false, reason: 'the body is not an EventBridge event (no source or detail-type)' };
  const message = messageOf(source, detailType, record(event.detail));
  const time = Date.parse(str(event.time) ?? '');
  return { ok: true, message: Number.isFinite(time) ? { ...message, time } : message };
}
