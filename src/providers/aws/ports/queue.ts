/** The interruption queue port: what the interruption controller needs from SQS. */

/** A received message: its body and the handle that deletes it. */
export interface QueueMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
}

/**
 * A queue the interruption controller polls. `receive` long-polls: it resolves with up to 10 messages as soon as
 * there are any, or with none after the poll's wait; an aborted poll resolves with none. A received message is
 * hidden from other receivers until it is deleted or its visibility timeout passes, then comes back.
 */
export interface InterruptionQueuePort {
  /** The queue's name (settings.interruptionQueue). */
  readonly name: string;
  /** Waits for messages (see the interface comment). Throws AwsApiError (NotFound when the queue does not exist). */
  receive(signal?: AbortSignal): Promise<QueueMessage[]>;
  /** Deletes a received message. Throws AwsApiError. */
  delete(message: QueueMessage): Promise<void>;
}
