import { inject, injectable } from 'inversify';
import type { ToolCall, ToolCallPolicy } from '../kernel/tool-call-policy.js';
import { validatePackageName } from '../kernel/validation.js';
import { PackageScopeGuard } from './package-scope-guard.js';

/**
 * Tools that declare `packageScope` act only on the selected project's application ids unless the
 * caller sets the declared allow field: checked here once for all of them, before the handler runs.
 */
@injectable()
export class PackageScopePolicy implements ToolCallPolicy {
  constructor(@inject(PackageScopeGuard) private readonly guard: PackageScopeGuard) {}

  check({ tool, args }: ToolCall): void {
    const scope = tool.packageScope;
    if (!scope) return;
    const value = args[scope.field];
    // An omitted optional package means the project's own app, which is in scope by definition.
    if (value === undefined) return;
    const pkg = validatePackageName(value as string, scope.field);
    this.guard.require(pkg, args[scope.allowField] === true, scope.field, scope.allowField);
  }
}
