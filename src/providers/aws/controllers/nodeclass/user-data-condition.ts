/** The EC2NodeClass `UserDataValid` condition and Event from the bootstrap lint (SCENARIOS.md S2, S3). */
import { ConditionTypes, type EC2NodeClass, ConditionReasons } from '../../../../api/index.js';
import { lint, type LintFinding } from '../../bootstrap/index.js';

/** The condition's outcome, and the warning Event text when there is something to say. */
export interface UserDataVerdict {
  condition: { type: string; status: 'True' | 'False'; reason: string; message: string };
  /** Set when userData has findings a user should act on. */
  event?: string;
}

function line(f: LintFinding): string {
  return `${f.severity} ${f.code}: ${f.message} (fix: ${f.fix})`;
}

/** Lints the class's userData: errors make the condition False; warnings keep it True but are reported. */
export function userDataVerdict(nodeClass: EC2NodeClass): UserDataVerdict {
  const findings = lint({ nodeClass: { metadata: nodeClass.metadata, spec: nodeClass.spec ?? {} } }).filter(
    (f) => f.severity !== 'info',
  );
  const errors = findings.filter((f) => f.severity === 'error');
  if (findings.length === 0)
    return {
      condition: {
        type: ConditionTypes.userDataValid,
        status: 'True',
        reason: ConditionReasons.userDataValid,
        message: '',
      },
    };
  const message = findings.map(line).join('; ');
  const condition =
    errors.length > 0
      ? {
          type: ConditionTypes.userDataValid,
          status: 'False' as const,
          reason: ConditionReasons.userDataInvalid,
          message,
        }
      : {
          type: ConditionTypes.userDataValid,
          status: 'True' as const,
          reason: ConditionReasons.userDataWarnings,
          message,
        };
  return { condition, event: message };
}
