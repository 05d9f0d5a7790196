// Payloads of the experimenter routes added for panels and recruitment: recruitment state, lookups, the drop-out funnel.
import { z } from 'zod';
import { SessionFlag, StoredSessionStatus } from './session.ts';

/** Recruitment as it stands: the setting (config, or the dashboard's last change) and what it means right now. */
export const RecruitmentState = z.object({
  open: z.boolean(),
  target_completed: z.number().int().positive().nullable(),
  /** Completed sessions that count toward the target (sessions marked pilot, test or excluded do not). */
  completed: z.number().int().nonnegative(),
  target_reached: z.boolean(),
  /** Whether a new visitor may start a session now. */
  accepting: z.boolean(),
  /** Why not, when not: closed by hand (or config), or the target reached. */
  reason: z.enum(['open', 'closed', 'target_reached']),
  closed_title: z.string(),
  closed_message: z.string(),
  /** 'config' until the dashboard first changes it. */
  set_by: z.enum(['config', 'dashboard']),
  updated_at: z.number().nullable(),
});
export type RecruitmentState = z.infer<typeof RecruitmentState>;

/** POST /api/admin/recruitment: open or close, and set or clear (null) the target; omitted fields stay as they are. */
export const RecruitmentUpdate = z
  .object({
    open: z.boolean().optional(),
    target_completed: z.number().int().positive().max(1_000_000).nullable().optional(),
  })
  .strict()
  .refine((u) => u.open !== undefined || u.target_completed !== undefined, { message: 'give open and/or target_completed' });
export type RecruitmentUpdate = z.infer<typeof RecruitmentUpdate>;

/** One session found by a lookup (panel id, completion code or session id), with what the experimenter acts on. */
export const LookupMatch = z.object({
  matched_by: z.enum(['panel_id', 'completion_code', 'session_id']),
  session_id: z.string(),
  status: StoredSessionStatus,
  mode: z.string(),
  label: z.string().nullable(),
  flag: SessionFlag.nullable(),
  created_at: z.number(),
  updated_at: z.number(),
  completion_code: z.string().nullable(),
  completed_at: z.number().nullable(),
  panel: z
    .object({ provider: z.string(), participant_id: z.string(), study_id: z.string().nullable(), session_id: z.string().nullable() })
    .nullable(),
});
export type LookupMatch = z.infer<typeof LookupMatch>;

export const LookupResponse = z.object({ query: z.string(), matches: z.array(LookupMatch) });
export type LookupResponse = z.infer<typeof LookupResponse>;
