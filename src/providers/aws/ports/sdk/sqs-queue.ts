/** The production interruption queue: SQS long polling through the AWS SDK v3, as Karpenter's SQS provider polls. */
import {
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import { AwsApiError, toAwsApiError } from '../errors.js';
import type { InterruptionQueuePort, QueueMessage } from '../queue.js';

/** Karpenter's poll: up to 10 messages, hidden 20 s while handled, and the longest long-poll wait SQS allows. */
export const ReceiveParameters = { MaxNumberOfMessages: 10, VisibilityTimeout: 20, WaitTimeSeconds: 20 } as const;

const missingQueueCodes: ReadonlySet<string> = new Set([
  'QueueDoesNotExist',
  'AWS.SimpleQueueService.NonExistentQueue',
]);

function toQueueError(e: unknown, queue: string): AwsApiError {
  const err = toAwsApiError(e);
  if (!missingQueueCodes.has(err.code)) return err;
  return new AwsApiError(
    err.code,
    `interruption queue "${queue}" does not exist (settings.interruptionQueue)`,
    'NotFound',
  );
}

function toQueueMessage(m: Message): QueueMessage | undefined {
  if (!m.ReceiptHandle) return undefined;
  return { messageId: m.MessageId ?? '', receiptHandle: m.ReceiptHandle, body: m.Body ?? '' };
}

/** An SQS queue found by name; its URL is looked up on first use and again after the queue went missing. */
export class SdkInterruptionQueue implements InterruptionQueuePort {
  private url: string | undefined;

  /** A queue named `name` (settings.interruptionQueue) reached through `client`. */
  constructor(
    private readonly client: SQSClient,
    readonly name: string,
  ) {}

  /** Long-polls the queue (ReceiveParameters); an aborted poll resolves with no messages. */
  async receive(signal?: AbortSignal): Promise<QueueMessage[]> {
    try {
      const QueueUrl = await this.queueUrl(signal);
      const out = await this.client.send(
        new ReceiveMessageCommand({
          QueueUrl,
          ...ReceiveParameters,
          MessageSystemAttributeNames: ['SentTimestamp'],
          MessageAttributeNames: ['All'],
        }),
        { abortSignal: signal },
      );
      return (out.Messages ?? []).map(toQueueMessage).filter((m): m is QueueMessage => m !== undefined);
    } catch (e: unknown) {
      if (signal?.aborted) return [];
      throw this.failed(e);
    }
  }

  /** Deletes a message by its receipt handle. */
  async delete(message: QueueMessage): Promise<void> {
    try {
      const QueueUrl = await this.queueUrl();
      await this.client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: message.receiptHandle }));
    } catch (e: unknown) {
      throw this.failed(e);
    }
  }

  private async queueUrl(signal?: AbortSignal): Promise<string> {
    if (this.url) return this.url;
    const out = await this.client.send(new GetQueueUrlCommand({ QueueName: this.name }), { abortSignal: signal });
    if (!out.QueueUrl) throw new AwsApiError('QueueDoesNotExist', `GetQueueUrl returned no URL for ${this.name}`);
    this.url = out.QueueUrl;
    return this.url;
  }

  private failed(e: unknown): AwsApiError {
    const err = toQueueError(e, this.name);
    // A queue deleted and re-created gets a new URL: look it up again.
    if (err.kind === 'NotFound') this.url = undefined;
    return err;
  }
}

/** The production queue for `name`, with the SDK's default region and credential chain. */
export function createSdkInterruptionQueue(name: string, options: { region?: string } = {}): SdkInterruptionQueue {
  const client = new SQSClient({
    ...(options.region === undefined ? {} : { region: options.region }),
    retryMode: 'standard',
    maxAttempts: 3,
  });
  return new SdkInterruptionQueue(client, name);
}
