// Recruitment: whether new visitors may start, from the config until the dashboard changes it, and the target count.
import type { StudyConfig } from '../shared/schema/config.ts';
import type { RecruitmentState } from '../shared/schema/admin.ts';
import type { StoreOps } from '../store/store.ts';

/**
 * The recruitment state now. Completed sessions count toward the target unless flagged (pilot, test, excluded).
 * A panel participant coming back, or anyone holding a session cookie, is not a new visitor: this only gates starts.
 */
export async function recruitmentState(
  store: StoreOps,
  config: Pick<StudyConfig, 'recruitment'>,
  opts: { count?: boolean } = {},
): Promise<RecruitmentState> {
  const setting = await store.recruitmentSetting();
  const open = setting ? setting.open : config.recruitment.open;
  const target = setting ? setting.target_completed : (config.recruitment.target_completed ?? null);
  // A start only needs the count when there is a target to compare it with (opts.count: false); the dashboard always.
  let completed = 0;
  if (opts.count !== false || (open && target !== null)) {
    completed = await store.countByStatus('complete');
    for (const id of await store.flaggedSessions()) if ((await store.session(id))?.status === 'complete') completed--;
  }
  const reached = target !== null && completed >= target;
  return {
    open,
    target_completed: target,
    completed,
    target_reached: reached,
    accepting: open && !reached,
    reason: !open ? 'closed' : reached ? 'target_reached' : 'open',
    closed_title: config.recruitment.closed_title,
    closed_message: config.recruitment.closed_message,
    set_by: setting ? 'dashboard' : 'config',
    updated_at: setting?.updated_at ?? null,
  };
}
