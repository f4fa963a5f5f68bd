import { generateAl2 } from './al2-gen.js';
import { generateAl2023 } from './al2023-gen.js';
import { generateBottlerocket } from './bottlerocket.js';
import { InvalidUserDataError } from './required.js';
import type { UserDataInput } from './types.js';
import { generateWindows } from './windows.js';

/** EC2's limit on userData: 16 KiB of plain text, before base64 encoding (RunInstances, launch templates). */
export const maxUserDataBytes = 16 * 1024;

/**
 * The userData Tenon launches an instance with, as plain text (the provider base64-encodes it). Per family:
 * AL2 MIME with bootstrap.sh, AL2023 MIME with NodeConfig documents (Tenon's last), Bottlerocket TOML,
 * Windows PowerShell, Custom verbatim. Wherever the user's userData sets registration taints or labels, the
 * kubelet's final taints are the union of the user's and the required ones (SCENARIOS.md S2).
 * Throws InvalidUserDataError when the user's userData cannot be read at all, or when the result is over EC2's
 * size limit (EC2 would refuse the launch template).
 */
export function generateUserData(input: UserDataInput): string {
  const userData = generateForFamily(input);
  const bytes = Buffer.byteLength(userData, 'utf8');
  if (bytes > maxUserDataBytes)
    throw new InvalidUserDataError(
      `the userData to launch with is ${bytes} bytes, over EC2's limit of ${maxUserDataBytes} bytes (16 KiB before base64 encoding)`,
    );
  return userData;
}

function generateForFamily(input: UserDataInput): string {
  switch (input.amiFamily) {
    case 'AL2':
      return generateAl2(input);
    case 'AL2023':
      return generateAl2023(input);
    case 'Bottlerocket':
      return generateBottlerocket(input);
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return generateWindows(input);
    case 'Custom':
      return input.userData ?? '';
    default:
      throw new InvalidUserDataError(`unknown AMI family "${String(input.amiFamily)}"`);
  }
}

/** A generation result: the userData, or why the user's userData cannot be used. */
export type GenerateResult = { ok: true; userData: string } | { ok: false; error: string };

/** Like generateUserData, but returns the failure instead of throwing. */
export function tryGenerateUserData(input: UserDataInput): GenerateResult {
  try {
    return { ok: true, userData: generateUserData(input) };
  } catch (e: unknown) {
    if (InvalidUserDataError.is(e)) return { ok: false, error: e.message };
    throw e;
  }
}
