import { SearchIcon } from 'lucide-react';
import { useId, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';
import { Label } from './label';

type SearchInputProps = ComponentProps<typeof Input> & {
  /** Classes of the wrapper that places the icon (its width, say). */
  wrapperClassName?: string;
};

/** A text field with the search icon inside it; the caller labels it. */
export function SearchInput({ wrapperClassName, className, ...props }: SearchInputProps) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <SearchIcon aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input className={cn('pl-9', className)} {...props} />
    </div>
  );
}

type ListSearchBoxProps = {
  /** What a screen reader announces; the field shows `placeholder`. */
  label: string;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
};

/** The search box above a server-searched list ('Buscar clínica ou CNPJ...', 'Buscar usuários...'). */
export function ListSearchBox({ label, placeholder, value, onChange }: ListSearchBoxProps) {
  const id = useId();
  return (
    <div className="max-w-sm">
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <SearchInput id={id} type="search" placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}
