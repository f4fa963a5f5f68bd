import { DeleteMessageCommand, GetQueueUrlCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { AwsApiError } from '../errors.js';
import { SdkInterruptionQueue } from './sqs-queue.js';

const sqs = mockClient(SQSClient);
const url = 'https://sqs.us-west-2.amazonaws.com/123456789012/demo';

function queue(): SdkInterruptionQueue {
  return new SdkInterruptionQueue(new SQSClient({ region: 'us-west-2', maxAttempts: 1 }), 'demo');
}

function sdkError(name: string): Error {
  const e = new Error(`${name} happened`);
  e.name = name;
  return e;
}

afterEach(() => sqs.reset());

describe('SdkInterruptionQueue', () => {
  it('looks the URL up once by name and long-polls as Karpenter does', async () => {
    sqs.on(GetQueueUrlCommand, { QueueName: 'demo' }).resolves({ QueueUrl: url });
    sqs.on(ReceiveMessageCommand).resolves({
      Messages: [
        { MessageId: 'm1', ReceiptHandle: 'r1', Body: '{"a":1}' },
        { MessageId: 'm2', Body: 'no handle: cannot be deleted, so not handed out' },
      ],
    });
    const q = queue();
    expect(await q.receive()).toEqual([{ messageId: 'm1', receiptHandle: 'r1', body: '{"a":1}' }]);
    await q.receive();
    expect(sqs.commandCalls(GetQueueUrlCommand)).toHaveLength(1);
    const input = sqs.commandCalls(ReceiveMessageCommand)[0]?.args[0].input;
    expect(input).toMatchObject({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 20, WaitTimeSeconds: 20 });
  });

  it('deletes by receipt handle', async () => {
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: url });
    sqs.on(DeleteMessageCommand).resolves({});
    await queue().delete({ messageId: 'm1', receiptHandle: 'r1', body: '' });
    expect(sqs.commandCalls(DeleteMessageCommand)[0]?.args[0].input).toEqual({ QueueUrl: url, ReceiptHandle: 'r1' });
  });

  it('names the setting when the queue does not exist, and looks the URL up again next time', async () => {
    sqs.on(GetQueueUrlCommand).rejects(sdkError('QueueDoesNotExist'));
    const q = queue();
    const e = await q.receive().catch((err: unknown) => err);
    expect(AwsApiError.isKind(e, 'NotFound')).toBe(true);
    expect(String(e)).toContain('settings.interruptionQueue');
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: url });
    sqs.on(ReceiveMessageCommand).resolves({});
    expect(await q.receive()).toEqual([]);
    expect(sqs.commandCalls(GetQueueUrlCommand)).toHaveLength(2);
  });

  it('maps throttling to a Throttled AwsApiError', async () => {
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: url });
    sqs.on(ReceiveMessageCommand).rejects(sdkError('RequestThrottled'));
    const e = await queue()
      .receive()
      .catch((err: unknown) => err);
    expect(AwsApiError.isKind(e, 'Throttled')).toBe(true);
  });

  it('resolves with no messages when the poll is aborted', async () => {
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: url });
    const abort = new AbortController();
    sqs.on(ReceiveMessageCommand).callsFake(() => {
      abort.abort();
      throw sdkError('AbortError');
    });
    expect(await queue().receive(abort.signal)).toEqual([]);
  });
});
