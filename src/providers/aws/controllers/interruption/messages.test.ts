import { describe, expect, it } from 'vitest';
import { MessageKinds, parseMessage } from './messages.js';

function ec2Event(detailType: string, detail: Record<string, unknown>): string {
  return JSON.stringify({
    version: '0',
    id: '7bf73129-1428-4cd3-a780-95db273d1602',
    'detail-type': detailType,
    source: 'aws.ec2',
    account: '123456789012',
    time: '2026-01-01T12:00:00Z',
    region: 'us-west-2',
    resources: ['arn:aws:ec2:us-west-2:123456789012:instance/i-0123456789abcdef0'],
    detail,
  });
}

function parsed(body: string): unknown {
  const r = parseMessage(body);
  return r.ok ? r.message : r.reason;
}

describe('parseMessage', () => {
  it('reads a spot interruption warning with its instance and event time', () => {
    const body = ec2Event('EC2 Spot Instance Interruption Warning', {
      'instance-id': 'i-0123456789abcdef0',
      'instance-action': 'terminate',
    });
    expect(parsed(body)).toEqual({
      kind: MessageKinds.spotInterruption,
      instanceIds: ['i-0123456789abcdef0'],
      time: Date.parse('2026-01-01T12:00:00Z'),
    });
  });

  it('reads a rebalance recommendation', () => {
    const body = ec2Event('EC2 Instance Rebalance Recommendation', { 'instance-id': 'i-1' });
    expect(parsed(body)).toMatchObject({ kind: 'rebalance_recommendation', instanceIds: ['i-1'] });
  });

  it.each([
    ['stopping', 'instance_stopped'],
    ['stopped', 'instance_stopped'],
    ['shutting-down', 'instance_terminated'],
    ['terminated', 'instance_terminated'],
  ])('reads a state change to %s as %s', (state, kind) => {
    const body = ec2Event('EC2 Instance State-change Notification', { 'instance-id': 'i-1', state });
    expect(parsed(body)).toMatchObject({ kind, instanceIds: ['i-1'], state });
  });

  it('treats state changes that do not end the instance as no_op', () => {
    for (const state of ['pending', 'running']) {
      const body = ec2Event('EC2 Instance State-change Notification', { 'instance-id': 'i-1', state });
      expect(parsed(body)).toMatchObject({ kind: 'no_op', instanceIds: [] });
    }
  });

  it('reads an EC2 scheduled change from AWS Health with every affected instance', () => {
    const body = JSON.stringify({
      version: '0',
      source: 'aws.health',
      'detail-type': 'AWS Health Event',
      time: '2026-01-01T12:00:00Z',
      detail: {
        service: 'EC2',
        eventTypeCategory: 'scheduledChange',
        eventTypeCode: 'AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED',
        startTime: 'Sat, 03 Jan 2026 15:10:09 GMT',
        affectedEntities: [{ entityValue: 'i-1' }, { entityValue: 'i-2' }, {}],
      },
    });
    expect(parsed(body)).toMatchObject({
      kind: 'scheduled_change',
      instanceIds: ['i-1', 'i-2'],
      startTime: Date.UTC(2026, 0, 3, 15, 10, 9),
    });
  });

  it('treats health events of other services or categories as no_op', () => {
    const body = JSON.stringify({
      source: 'aws.health',
      'detail-type': 'AWS Health Event',
      detail: { service: 'RDS', eventTypeCategory: 'scheduledChange', affectedEntities: [{ entityValue: 'db-1' }] },
    });
    expect(parsed(body)).toMatchObject({ kind: 'no_op', instanceIds: [] });
  });

  it('treats events of other sources and detail types as no_op', () => {
    expect(parsed(ec2Event('EC2 AMI State Change', { ImageId: 'ami-1' }))).toMatchObject({ kind: 'no_op' });
    expect(parsed(JSON.stringify({ source: 'aws.s3', 'detail-type': 'Object Created' }))).toMatchObject({
      kind: 'no_op',
    });
  });

  it('says why a body is not an event', () => {
    expect(parsed('{not json')).toMatch(/^the body is not JSON/);
    expect(parsed('{"hello":"world"}')).toBe('the body is not an EventBridge event (no source or detail-type)');
  });
});
